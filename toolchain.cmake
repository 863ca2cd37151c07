# Cross toolchain: Debian's riscv64-unknown-elf-gcc with picolibc.
# Nothing board-specific lives here; boards/<board>/board.cmake adds that.

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv64)

find_program(RISCV_GCC riscv64-unknown-elf-gcc)
if(NOT RISCV_GCC)
  message(FATAL_ERROR
    "riscv64-unknown-elf-gcc not found. Install the Debian packages "
    "gcc-riscv64-unknown-elf and picolibc-riscv64-unknown-elf "
    "(scripts/install-deps does this).")
endif()
find_program(RISCV_OBJCOPY riscv64-unknown-elf-objcopy REQUIRED)

set(CMAKE_C_COMPILER ${RISCV_GCC})
set(CMAKE_ASM_COMPILER ${RISCV_GCC})
set(CMAKE_OBJCOPY ${RISCV_OBJCOPY} CACHE FILEPATH "objcopy for the image")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)

execute_process(COMMAND ${RISCV_GCC} -print-file-name=picolibc.specs
                OUTPUT_VARIABLE _specs OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT IS_ABSOLUTE "${_specs}")
  message(FATAL_ERROR
    "picolibc.specs not found for ${RISCV_GCC}. Install the Debian package "
    "picolibc-riscv64-unknown-elf (scripts/install-deps does this).")
endif()

# rv64imac with the 2.2 ISA spec: zicsr is part of I there, and this pair
# selects an existing multilib (rv64imac_zicsr does not, and the link fails).
set(RISCV_ARCH_FLAGS "-march=rv64imac -misa-spec=2.2 -mabi=lp64 -mcmodel=medany")
# picolibc's "release" build: its memcpy copies words, the default
# (size-optimised) one copies byte by byte, 6 instructions per byte.
set(PICOLIBC_FLAGS "--specs=picolibc.specs --picolibc-buildtype=release")
set(CMAKE_C_FLAGS_INIT
    "${RISCV_ARCH_FLAGS} ${PICOLIBC_FLAGS} -ffreestanding -ffunction-sections -fdata-sections -Wall -Wextra -Werror")
set(CMAKE_ASM_FLAGS_INIT "${RISCV_ARCH_FLAGS} ${PICOLIBC_FLAGS}")
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-nostartfiles -Wl,--gc-sections -Wl,--no-warn-rwx-segments")
# (CMAKE_C_FLAGS, with the arch flags and the specs, are on the link line too.)

set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
