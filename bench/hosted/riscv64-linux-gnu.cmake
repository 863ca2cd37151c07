# Cross toolchain for uartbench-hosted on riscv64 Linux: Debian's
# gcc-riscv64-linux-gnu and libc6-dev-riscv64-cross (glibc; link with
# HOSTED_STATIC=ON for a binary that runs as an initramfs's /init).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
