# Library unit tests: ring buffer, statistics, CRC-32 and timer queue.
# Included from tests/host/CMakeLists.txt, which defines host_test,
# host_test_tsan and SRC.

set(LIB_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})

host_test(ring ${LIB_TESTS_DIR}/test_ring.c ${SRC}/lib/ring.c)
host_test_tsan(ring_tsan ${LIB_TESTS_DIR}/test_ring_tsan.c ${SRC}/lib/ring.c)
host_test(stats ${LIB_TESTS_DIR}/test_stats.c ${SRC}/lib/stats.c)
host_test(crc32 ${LIB_TESTS_DIR}/test_crc32.c ${SRC}/lib/crc32.c)
host_test(timerq ${LIB_TESTS_DIR}/test_timerq.c ${SRC}/lib/timerq.c)
host_test(line_point ${LIB_TESTS_DIR}/test_line_point.c ${SRC}/lib/line_point.c)
host_test_tsan(spinlock_tsan ${LIB_TESTS_DIR}/test_spinlock_tsan.c)
