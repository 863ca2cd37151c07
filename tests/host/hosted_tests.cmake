# Unit tests of uartbench-hosted's shim (bench/hosted/) parts that read
# what a small kernel gives: /proc/instret's text (text_counter.c),
# StarryOS's TX telemetry ioctls (txdbg.c).
# Included from tests/host/CMakeLists.txt, which defines host_test.

set(HOSTED_SHIM ${PROJECT_SOURCE_DIR}/bench/hosted)
host_test(text_counter ${CMAKE_CURRENT_LIST_DIR}/test_text_counter.c ${HOSTED_SHIM}/text_counter.c
          ${HOSTED_SHIM}/perf_counter.c)
target_include_directories(test_text_counter PRIVATE ${HOSTED_SHIM})
target_compile_definitions(test_text_counter PRIVATE _GNU_SOURCE)
# StarryOS's TX telemetry ioctls (txdbg.c) against a fake kernel's ioctl.
host_test(txdbg ${CMAKE_CURRENT_LIST_DIR}/test_txdbg.c ${HOSTED_SHIM}/txdbg.c)
target_include_directories(test_txdbg PRIVATE ${HOSTED_SHIM} ${HOSTED_SHIM}/include)
target_compile_definitions(test_txdbg PRIVATE _GNU_SOURCE)
target_link_options(test_txdbg PRIVATE -Wl,--wrap=ioctl)
