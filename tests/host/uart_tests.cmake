# UART driver unit tests against a register-level fake UART (fake_uart.c,
# fake_uart_fifo.c, fake_uart_regs.c) and a fake kernel (fake_kernel.c,
# fake_tasks.c) in fake time. The driver's lower half is chosen at build
# time (UART_LOWER_HEADER), so every driver test is built once per lower
# half, host.<test>.<lower>, with the fake's `dw` switch to match
# (test_lower.c); the engines (async, console, copier) each on every lower
# half.
# Included from tests/host/CMakeLists.txt, which defines host_executable,
# host_test and SRC.

set(UART_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(UART_DRV ${SRC}/drivers/uart)
set(UART_LOWERS ns16550 dw_apb)
set(UART_FAKES ${UART_TESTS_DIR}/fake_uart.c ${UART_TESTS_DIR}/fake_uart_fifo.c
                ${UART_TESTS_DIR}/fake_uart_regs.c ${UART_TESTS_DIR}/fake_kernel.c
                ${UART_TESTS_DIR}/fake_tasks.c ${UART_TESTS_DIR}/fake_acct.c
                ${UART_TESTS_DIR}/test_lower.c)
# The tty core with one engine: the driver as an image links it.
set(UART_CORE ${UART_DRV}/tty.c ${UART_DRV}/tty_rx.c ${UART_DRV}/tty_ctr.c
              ${UART_DRV}/uart_cfg.c ${SRC}/kernel/waitq.c ${UART_TESTS_DIR}/ring_calls.c
              ${SRC}/kernel/console.c)
# Each engine's files (the copier's RX copier task is a file of its own).
set(UART_ENGINE_async ${UART_DRV}/engine_async.c)
set(UART_ENGINE_console ${UART_DRV}/engine_console.c)
set(UART_ENGINE_copier ${UART_DRV}/engine_copier.c ${UART_DRV}/engine_copier_rx.c)
# The driver's files call ring.h's ring_push and ring_pop out of line
# (ring_calls.h, ring_calls.c), so that a test can wrap them (--wrap).
set(UART_DRV_FILES ${UART_CORE} ${UART_ENGINE_async} ${UART_ENGINE_console}
                   ${UART_ENGINE_copier})
list(FILTER UART_DRV_FILES INCLUDE REGEX "/src/drivers/uart/")
set_source_files_properties(${UART_DRV_FILES} PROPERTIES
                            COMPILE_OPTIONS "-include;${UART_TESTS_DIR}/ring_calls.h")
set(UART_ASYNC ${UART_CORE} ${UART_ENGINE_async})
set(UART_CONSOLE ${UART_CORE} ${UART_ENGINE_console})
set(UART_COPIER ${UART_CORE} ${UART_ENGINE_copier})

# uart_lower_flags(TARGET LOWER): the flags of a driver built with the
# lower half src/drivers/uart/lower_LOWER.h (and the fake's `dw` switch).
function(uart_lower_flags target lower)
  target_include_directories(${target} PRIVATE ${UART_DRV})
  set(dw 0)
  if(lower STREQUAL "dw_apb")
    set(dw 1)
  endif()
  target_compile_definitions(${target} PRIVATE UART_LOWER_HEADER="lower_${lower}.h"
                             TEST_LOWER_DW=${dw})
endfunction()

# uart_engine_flags(TARGET ENGINE): the flags of a driver built with the
# TX engine ENGINE, whose ops table src/drivers/uart/engine_ENGINE.h the
# tty core includes (as BACKEND picks it for an image).
function(uart_engine_flags target engine)
  target_compile_definitions(${target} PRIVATE UART_ENGINE_HEADER="engine_${engine}.h")
endfunction()

# uart_test(NAME LOWER [ENGINE engine] src...): the executable
# test_NAME_LOWER, the driver in it built with the lower half LOWER and
# the engine ENGINE (default async), registered as host.NAME.LOWER.
function(uart_test name lower)
  cmake_parse_arguments(U "" "ENGINE" "" ${ARGN})
  if(NOT U_ENGINE)
    set(U_ENGINE async)
  endif()
  set(exe test_${name}_${lower})
  host_executable(${exe} ${U_UNPARSED_ARGUMENTS})
  uart_lower_flags(${exe} ${lower})
  uart_engine_flags(${exe} ${U_ENGINE})
  add_test(NAME host.${name}.${lower} COMMAND ${exe})
  set_tests_properties(host.${name}.${lower} PROPERTIES LABELS host TIMEOUT 120)
endfunction()

# The fakes, compiled once per lower half, and the tty core, once per
# lower half and engine (it includes the engine's ops table), for the
# tests below that link them unchanged (no test's own defines reach them:
# the ring sizes and the copier's switches are the engines' .c files'):
# uart_fakes_LOWER, uart_core_LOWER_ENGINE.
foreach(lower IN LISTS UART_LOWERS)
  host_objects(uart_fakes_${lower} ${UART_FAKES})
  uart_lower_flags(uart_fakes_${lower} ${lower})
  uart_engine_flags(uart_fakes_${lower} async)
  foreach(engine async console copier)
    host_objects(uart_core_${lower}_${engine} ${UART_CORE})
    uart_lower_flags(uart_core_${lower}_${engine} ${lower})
    uart_engine_flags(uart_core_${lower}_${engine} ${engine})
  endforeach()
endforeach()

# The SiFive UART's lower half alone, against its own register-level fake
# (the engines run on it on QEMU's sifive_u: tests/qemu).
uart_test(uart_lower sifive ${UART_TESTS_DIR}/test_uart_lower_sifive.c
          ${UART_TESTS_DIR}/fake_sifive_uart.c)

# The async test: TX tests and main(), DW quirk/RX/loopback tests, drains
# under line faults, helpers.
set(UART_ASYNC_TESTS ${UART_TESTS_DIR}/test_uart_async.c
    ${UART_TESTS_DIR}/test_uart_async_quirks.c ${UART_TESTS_DIR}/test_uart_async_faults.c
    ${UART_TESTS_DIR}/test_uart_async_lead.c ${UART_TESTS_DIR}/test_uart_async_util.c)

foreach(lower IN LISTS UART_LOWERS)
  set(UART_FAKES_OBJ $<TARGET_OBJECTS:uart_fakes_${lower}>)
  foreach(engine async console copier)   # UART_ASYNC_OBJ, ...: the core's objects + an engine
    string(TOUPPER ${engine} _en)
    set(UART_${_en}_OBJ $<TARGET_OBJECTS:uart_core_${lower}_${engine}>
        ${UART_ENGINE_${engine}})
  endforeach()
  # The lower half alone: registers, quirks, polled output (waitq.c: the
  # fake kernel's sleeps).
  uart_test(uart_lower ${lower} ${UART_TESTS_DIR}/test_uart_lower.c
            ${UART_TESTS_DIR}/test_uart_lower_ops.c ${UART_DRV}/uart_cfg.c
            ${SRC}/kernel/waitq.c ${UART_FAKES_OBJ})

  uart_test(uart_async ${lower} ${UART_ASYNC_TESTS} ${UART_ASYNC_OBJ} ${UART_FAKES_OBJ})
  # The same with a 256-byte TX ring, so that writers block on a full ring.
  uart_test(uart_async_ring256 ${lower} ${UART_ASYNC_TESTS} ${UART_ASYNC_OBJ} ${UART_FAKES_OBJ})
  target_compile_definitions(test_uart_async_ring256_${lower} PRIVATE UART_TX_RING_SIZE=256)

  # Races against the interrupt: taken at a seeded choice of register
  # accesses and ring calls (the driver's ring_push/ring_pop wrapped).
  uart_test(uart_async_races ${lower} ${UART_TESTS_DIR}/test_uart_async_races.c
            ${UART_TESTS_DIR}/test_uart_async_util.c ${UART_ASYNC_OBJ} ${UART_FAKES_OBJ})
  target_compile_definitions(test_uart_async_races_${lower} PRIVATE UART_TX_RING_SIZE=256)
  target_link_options(test_uart_async_races_${lower} PRIVATE
                      -Wl,--wrap=ring_push -Wl,--wrap=ring_pop)
  # Under load: the TX counters' sums across writes, interrupts and resets,
  # and the RX budget against a flood faster than the handler.
  uart_test(uart_async_load ${lower} ${UART_TESTS_DIR}/test_uart_async_load.c
            ${UART_TESTS_DIR}/test_uart_async_util.c ${UART_ASYNC_OBJ} ${UART_FAKES_OBJ})

  uart_test(uart_console ${lower} ENGINE console ${UART_TESTS_DIR}/test_uart_console.c
            ${UART_CONSOLE_OBJ} ${UART_FAKES_OBJ})

  # The copier engine (StarryOS's design): bytes through the staging
  # buffer and the ring's wrap, the retry ladder's exact counters on a
  # line held for a known time, tcdrain, the interrupt and the RX
  # copier's NAPI rule (its ring_push calls watched: --wrap), the CPU
  # phases; with its slow poll (the default) and without it
  # (COPIER_SLOW_POLL=0: host.uart_copier_noslow.<lower>).
  foreach(slow 1 0)
    set(_name uart_copier)
    if(slow STREQUAL "0")
      set(_name uart_copier_noslow)
    endif()
    uart_test(${_name} ${lower} ENGINE copier ${UART_TESTS_DIR}/test_uart_copier.c
              ${UART_TESTS_DIR}/test_uart_copier_ladder.c
              ${UART_TESTS_DIR}/test_uart_copier_irq.c
              ${UART_TESTS_DIR}/test_uart_async_util.c ${UART_COPIER_OBJ} ${UART_FAKES_OBJ})
    target_compile_definitions(test_${_name}_${lower} PRIVATE COPIER_SLOW_POLL=${slow}
                               TEST_ENGINE="copier")
    target_link_options(test_${_name}_${lower} PRIVATE -Wl,--wrap=ring_push)
  endforeach()

  # Per-port engine state: a second port beside the console's
  # (UART_PORTS=2), each design with state.
  foreach(engine async copier)
    string(TOUPPER ${engine} _en)
    uart_test(uart_ports_${engine} ${lower} ENGINE ${engine} ${UART_TESTS_DIR}/test_uart_ports.c
              ${UART_TESTS_DIR}/test_uart_async_util.c ${UART_${_en}} ${UART_FAKES_OBJ})
    target_compile_definitions(test_uart_ports_${engine}_${lower} PRIVATE UART_PORTS=2U
                               TEST_ENGINE="${engine}")
  endforeach()

  # Two writers and two drainers as tasks (fake_tasks.c): records whole
  # and in order, no lost wake-up, counters that add up; with the default
  # ring and with a 256-byte one (writers block on a full ring).
  foreach(ring default 256)
    set(_name uart_tasks)
    if(ring STREQUAL "256")
      set(_name uart_tasks_ring256)
    endif()
    uart_test(${_name} ${lower} ${UART_TESTS_DIR}/test_uart_tasks.c
              ${UART_TESTS_DIR}/test_uart_async_util.c ${UART_ASYNC_OBJ} ${UART_FAKES_OBJ})
    if(ring STREQUAL "256")
      target_compile_definitions(test_${_name}_${lower} PRIVATE UART_TX_RING_SIZE=256)
    endif()
  endforeach()
endforeach()

# The wire model: its TX side and register filter, its RX side (the
# modelled far end and RX FIFO; the CRC of what it delivered).
set(UART_WIRE ${UART_DRV}/wire_model.c ${UART_DRV}/wire_hooks.c ${UART_DRV}/wire_lock.c
    ${UART_DRV}/wire_rx.c ${SRC}/lib/crc32.c)

# The wire model (115200 baud, 16-byte FIFO; it models the NS16550A) in
# fake time, alone and behind the register seam, over a fake cpu_acct_call.
host_test(wire_model ${UART_TESTS_DIR}/test_wire_model.c ${UART_TESTS_DIR}/test_wire_model_seam.c
          ${UART_TESTS_DIR}/fake_acct.c ${UART_WIRE})
target_compile_definitions(test_wire_model PRIVATE WIRE_BAUD=115200 WIRE_FIFO=16)

# The wire model's receive side in fake time, ns- and byte-exact: the
# modelled far end's arrivals, the RX FIFO's trigger, timeout and
# overrun, the ground truth, the interrupt line and the RX timer; each
# test picks its own line (baud, FIFO depth) and far end.
host_test(wire_rx ${UART_TESTS_DIR}/test_wire_rx.c ${UART_TESTS_DIR}/test_wire_rx_fifo.c
          ${UART_TESTS_DIR}/test_wire_rx_line.c ${UART_TESTS_DIR}/test_wire_rx_env.c
          ${UART_TESTS_DIR}/fake_acct.c ${UART_WIRE} ${SRC}/lib/line_point.c)
target_compile_definitions(test_wire_rx PRIVATE WIRE_BAUD=115200 WIRE_FIFO=16)

# Both engines with the wire model (115200 baud, 16-byte FIFO) in front of
# a QEMU-like fake NS16550A: line physics, THRE/TEMT timing, drain bounds.
foreach(engine async console)
  string(TOUPPER ${engine} _en)
  uart_test(uart_wire_${engine} ns16550 ENGINE ${engine} ${UART_TESTS_DIR}/test_uart_wire.c
            ${UART_${_en}} ${UART_WIRE} ${UART_FAKES})
  target_compile_definitions(test_uart_wire_${engine}_ns16550 PRIVATE
                             WIRE_BAUD=115200 WIRE_FIFO=16 BACKEND_${_en}=1)
endforeach()

# The driver on four harts, a thread each, under ThreadSanitizer, entered
# through the POSIX layer (src/io): each engine with the NS16550A fake behind a bus mutex (fake_uart_bus.c:
# the driver's register accesses wrapped) and the threaded fake kernel
# (fake_kernel_threads.c; HOST_SMP: harts_many() a variable, interrupt
# state per thread); a 1 KiB TX ring, so that writers block on a full
# one. host.uart_smp_tsan (async), host.uart_smp_tsan_console, _copier.
set(UART_SMP_FAKES ${UART_TESTS_DIR}/fake_kernel_threads.c ${UART_TESTS_DIR}/fake_tasks_threads.c
                   ${UART_TESTS_DIR}/fake_uart_bus.c
                   ${UART_TESTS_DIR}/fake_uart.c ${UART_TESTS_DIR}/fake_uart_fifo.c
                   ${UART_TESTS_DIR}/fake_uart_regs.c
                   ${SRC}/io/posix.c ${SRC}/io/posix_ctl.c ${SRC}/io/posix_time.c
                   ${SRC}/io/read_timing.c)
foreach(engine async console copier)
  string(TOUPPER ${engine} _en)
  set(_name uart_smp_tsan_${engine})
  if(engine STREQUAL "async")
    set(_name uart_smp_tsan)
  endif()
  host_test_tsan(${_name} ${UART_TESTS_DIR}/test_uart_smp_tsan.c ${UART_${_en}}
                 ${UART_SMP_FAKES})
  target_include_directories(test_${_name} PRIVATE ${UART_DRV})
  # (GCC's TSan does not model fences: the wait queues' fences are
  # not what orders the driver's data, its locks and atomics are.)
  target_compile_options(test_${_name} PRIVATE -Wno-tsan)
  target_compile_definitions(test_${_name} PRIVATE HOST_SMP=1 UART_LOWER_HEADER="lower_ns16550.h"
                             UART_TX_RING_SIZE=1024)
  uart_engine_flags(test_${_name} ${engine})
  target_link_options(test_${_name} PRIVATE -Wl,--wrap=fake_mmio_read
                      -Wl,--wrap=fake_mmio_write)
endforeach()
