# POSIX layer tests: src/io against a mock UART backend, clock and timer.
# Included from tests/host/CMakeLists.txt, which defines host_test and SRC.
# Host builds of src/io use the kposix_ names (posix_io.h, HOST_TEST).

set(IO_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})

host_test(posix ${IO_TESTS_DIR}/test_posix.c ${IO_TESTS_DIR}/fake_backend.c
  ${SRC}/io/posix.c ${SRC}/io/posix_tty.c ${SRC}/io/posix_time.c)
