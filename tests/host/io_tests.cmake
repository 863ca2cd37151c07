# POSIX layer tests: src/io against a mock UART backend, clock and timer
# (fake_backend.c). Included from tests/host/CMakeLists.txt, which defines
# host_test and SRC. Host builds of src/io use the kposix_ names
# (posix_io.h, under HOST_TEST), so glibc's read/write/open stay intact.

set(IO_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(IO_POSIX_SRC ${IO_TESTS_DIR}/fake_backend.c
  ${SRC}/io/posix.c ${SRC}/io/posix_ctl.c ${SRC}/io/posix_time.c ${SRC}/io/read_timing.c)

host_test(posix ${IO_TESTS_DIR}/test_posix.c ${IO_POSIX_SRC})
host_test(posix_ctl ${IO_TESTS_DIR}/test_posix_ctl.c ${IO_POSIX_SRC})
