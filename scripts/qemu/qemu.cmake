# The project's QEMU (docs/qemu-line.md): Debian's source package qemu with
# the patches in scripts/qemu/patches, built once by scripts/qemu/build
# into UARTBENCH_QEMU_DIR (default build/qemu of the source tree, shared by
# every build directory: the build takes a lock and is keyed by the source
# version and the patches, so a second build directory finds it up to
# date in a second). Included by scripts/image.cmake (QEMU boards) and the
# top-level CMakeLists.txt (the test build). Sets UARTBENCH_QEMU, the
# binary every QEMU run uses (scripts/qemu-run reads it from qemu.json).
if(TARGET qemu)
  return()
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)
set(UARTBENCH_QEMU_DIR ${CMAKE_SOURCE_DIR}/build/qemu CACHE PATH
    "Where scripts/qemu/build builds the project's QEMU (shared by every build directory)")
cmake_host_system_information(RESULT _qemu_ncpu QUERY NUMBER_OF_LOGICAL_CORES)
set(UARTBENCH_QEMU ${UARTBENCH_QEMU_DIR}/bin/qemu-system-riscv64)
# Built by default in the test build (its tests boot it); an image's build
# builds it for its run targets only, so that image builds running beside
# the test build never wait for the build's lock.
if(DEFINED BOARD)
  set(_qemu_all "")
else()
  set(_qemu_all ALL)
endif()
add_custom_target(qemu ${_qemu_all}
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/qemu/build
          --out ${UARTBENCH_QEMU_DIR} -j ${_qemu_ncpu}
  BYPRODUCTS ${UARTBENCH_QEMU}
  COMMENT "The project's QEMU (cached in ${UARTBENCH_QEMU_DIR}; about 4 min the first time)"
  USES_TERMINAL)
