# Library unit tests: ring buffer, statistics, CRC-32, the kernel's timers; the
# spinlock and the wait queue with threads under ThreadSanitizer.
# Included from tests/host/CMakeLists.txt, which defines host_test,
# host_test_tsan and SRC.

set(LIB_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})

host_test(ring ${LIB_TESTS_DIR}/test_ring.c)
host_test_tsan(ring_tsan ${LIB_TESTS_DIR}/test_ring_tsan.c)
host_test(stats ${LIB_TESTS_DIR}/test_stats.c ${SRC}/lib/stats.c)
host_test(crc32 ${LIB_TESTS_DIR}/test_crc32.c ${SRC}/lib/crc32.c)
# The kernel's timers (time.c) on its clock, built for qemu-virt's
# timebase, over a fake timebase and compare register (TIME_SRCS:
# tests/host/CMakeLists.txt).
host_test(timer ${LIB_TESTS_DIR}/test_timer.c ${TIME_SRCS})
target_include_directories(test_timer PRIVATE ${PROJECT_SOURCE_DIR}/boards/qemu-virt)
target_compile_definitions(test_timer PRIVATE WIRE_BAUD=0)
host_test(line_point ${LIB_TESTS_DIR}/test_line_point.c ${SRC}/lib/line_point.c)
host_test_tsan(spinlock_tsan ${LIB_TESTS_DIR}/test_spinlock_tsan.c)
# The wait queue with a thread per hart: under TSan (races), and under
# ASan/UBSan with more rounds (a missing fence's lost wakes).
set(WAITQ_THREADS ${LIB_TESTS_DIR}/test_waitq_threads.c
                  ${LIB_TESTS_DIR}/fake_sched_threads.c ${SRC}/kernel/waitq.c)
host_test_tsan(waitq_tsan ${WAITQ_THREADS})
host_test(waitq_threads ${WAITQ_THREADS})
foreach(t test_waitq_tsan test_waitq_threads)
  target_compile_definitions(${t} PRIVATE HOST_CSR_PER_THREAD=1 HOST_SMP=1)
  target_link_options(${t} PRIVATE -pthread)
endforeach()
# GCC's -Wtsan: ThreadSanitizer does not model waitq's seq_cst fences (it
# sees the queue's head as atomic and its list under the lock).
target_compile_options(test_waitq_tsan PRIVATE -Wno-tsan)
# 100000 rounds of six threads: tens of seconds on two busy cores; under
# TSan 5000 rounds, 1.2 s alone, and tens of seconds beside two CPU hogs.
set_tests_properties(host.waitq_threads host.waitq_tsan PROPERTIES TIMEOUT 180)
