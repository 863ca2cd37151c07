# The Linux 8250 peer (docs/linux-peer.md): Debian's Linux 6.1 for riscv64,
# tinyconfig + scripts/linux-peer/kernel.config, built once into
# linux-peer/kernel of the build tree (cached there: rebuilt only when the
# fragment's options, the source package or the cross compiler change),
# and one run directory per /init program (linux_peer_run_dir: an
# initramfs and the qemu.json that scripts/qemu-run boots on the same QEMU
# command as our images). Included from the top-level CMakeLists.txt in
# the test build, before the directories that use linux_peer_run_dir;
# tests/linux holds the stand-in /init's run directory and the tests.
option(LINUX_PEER "Build the Linux 8250 peer's kernel and run its tests (label linux)" ON)
if(NOT LINUX_PEER)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(LINUX_PEER_SOURCE /usr/src/linux-source-6.1.tar.xz CACHE FILEPATH
    "Linux source tarball of the peer's kernel (Debian package linux-source-6.1)")
set(LINUX_PEER_INIT "" CACHE FILEPATH
    "A static riscv64 Linux program to boot as /init besides the stand-in (run directory linux-peer/init)")
cmake_host_system_information(RESULT _ncpu QUERY NUMBER_OF_LOGICAL_CORES)
set(LINUX_PEER_JOBS ${_ncpu} CACHE STRING "make -j of the Linux peer's kernel build")
find_program(LINUX_PEER_CC riscv64-linux-gnu-gcc)
set(_libc /usr/riscv64-linux-gnu/lib/libc.a)
if(NOT LINUX_PEER_CC OR NOT EXISTS ${LINUX_PEER_SOURCE} OR NOT EXISTS ${_libc})
  message(FATAL_ERROR "LINUX_PEER=ON needs riscv64-linux-gnu-gcc and ${_libc} (Debian packages "
    "gcc-riscv64-linux-gnu, libc6-dev-riscv64-cross) and ${LINUX_PEER_SOURCE} (linux-source-6.1): "
    "run scripts/install-deps, or configure with -DLINUX_PEER=OFF")
endif()
if(LINUX_PEER_INIT AND NOT EXISTS ${LINUX_PEER_INIT})
  message(FATAL_ERROR "LINUX_PEER_INIT='${LINUX_PEER_INIT}' does not exist; give the path of a "
    "static riscv64 Linux program (riscv64-linux-gnu-gcc -static)")
endif()

set(LINUX_PEER_DIR ${CMAKE_BINARY_DIR}/linux-peer)
set(LINUX_PEER_SCRIPTS ${CMAKE_CURRENT_LIST_DIR})
set(LINUX_PEER_IMAGE ${LINUX_PEER_DIR}/kernel/Image)
set(LINUX_PEER_BUILD ${Python3_EXECUTABLE} ${LINUX_PEER_SCRIPTS}/build-kernel
    --out ${LINUX_PEER_DIR}/kernel --source ${LINUX_PEER_SOURCE})
set(LINUX_PEER_ICOUNT_SHIFT 1)   # every QEMU image's default (QEMU_ICOUNT_SHIFT)

# The kernel: build-kernel decides in a second whether the cached Image is
# up to date; the first build unpacks and compiles (about 3 min on two cores).
# Not in ninja's console pool, which QEMU's build holds: the two build at
# once, each filling the other's single-threaded steps (unpacking,
# configuring, linking), and the test preset's third job builds the images
# and host tests beside them; ninja shows this one's progress lines when it
# ends.
add_custom_target(linux-peer-kernel ALL
  COMMAND ${LINUX_PEER_BUILD} -j ${LINUX_PEER_JOBS}
  BYPRODUCTS ${LINUX_PEER_IMAGE}
  COMMENT "Linux peer: kernel Image (cached in ${LINUX_PEER_DIR}/kernel)")

# linux_peer_run_dir(NAME INIT [DEPENDS targets...] [BOOTARGS key=value...]):
# linux-peer/NAME with an initramfs whose /init is INIT (a path, or
# $<TARGET_FILE:...> with the target in DEPENDS) and the qemu.json
# scripts/qemu-run boots (`scripts/qemu-run --image-dir linux-peer/NAME`,
# or target linux-peer-NAME-run), its kernel command line the peer's own
# arguments and BOOTARGS (the kernel passes those it does not know to
# /init as environment variables); LINUX_PEER_RUN_DIR_<NAME> is that
# directory.
function(linux_peer_run_dir name init)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "DEPENDS;BOOTARGS")
  string(JOIN " " cmdline "console=ttyS0 panic=-1 earlycon quiet" ${arg_BOOTARGS})
  set(dir ${LINUX_PEER_DIR}/${name})
  file(MAKE_DIRECTORY ${dir})
  add_custom_command(OUTPUT ${dir}/initramfs.cpio.gz
    COMMAND ${Python3_EXECUTABLE} ${LINUX_PEER_SCRIPTS}/mkinitramfs --init ${init}
            --out ${dir}/initramfs.cpio.gz
    DEPENDS ${init} ${LINUX_PEER_SCRIPTS}/mkinitramfs ${arg_DEPENDS}
    COMMENT "Linux peer: initramfs of ${name}")
  add_custom_target(linux-peer-${name} ALL DEPENDS ${dir}/initramfs.cpio.gz)
  file(WRITE ${dir}/qemu.json
"{\"board\": \"qemu-virt\", \"backend\": \"linux\", \"machine\": \"virt\", \"bios\": \"default\", \"kernel\": \"${LINUX_PEER_IMAGE}\", \"initrd\": \"${dir}/initramfs.cpio.gz\", \"cmdline\": \"${cmdline}\", \"icount_shift\": ${LINUX_PEER_ICOUNT_SHIFT}, \"qemu\": \"${UARTBENCH_QEMU}\", \"line\": \"instant\"}\n")
  add_custom_target(linux-peer-${name}-run
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/qemu-run --image-dir ${dir}
            --timeout 60
    DEPENDS linux-peer-kernel linux-peer-${name} USES_TERMINAL
    COMMENT "Booting the Linux peer (${name}), log in ${dir}/run.log")
  set(LINUX_PEER_RUN_DIR_${name} ${dir} PARENT_SCOPE)
endfunction()

if(LINUX_PEER_INIT)
  linux_peer_run_dir(init ${LINUX_PEER_INIT})
endif()
