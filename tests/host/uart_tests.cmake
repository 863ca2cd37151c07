# UART driver unit tests: the register layer and both backends against a
# register-level fake UART (fake_uart.c, fake_uart_fifo.c, fake_uart_regs.c)
# and a single-threaded fake kernel (fake_kernel.c) in fake time. Included
# from tests/host/CMakeLists.txt, which defines host_test and SRC.

set(UART_TESTS_DIR ${CMAKE_CURRENT_LIST_DIR})
set(UART_DRV ${SRC}/drivers/uart)
set(UART_FAKES ${UART_TESTS_DIR}/fake_uart.c ${UART_TESTS_DIR}/fake_uart_fifo.c
                ${UART_TESTS_DIR}/fake_uart_regs.c ${UART_TESTS_DIR}/fake_kernel.c
                ${UART_TESTS_DIR}/fake_acct.c ${SRC}/kernel/sleep.c)
set(UART_ASYNC_SRC ${UART_DRV}/async.c ${UART_DRV}/async_tx.c ${UART_DRV}/async_rx.c
    ${UART_DRV}/async_ctr.c)

host_test(uart_regs ${UART_TESTS_DIR}/test_uart_regs.c
          ${UART_DRV}/ns16550.c ${UART_FAKES})

# async.c and console.c both define uart_be_*: one executable each. The
# async test: TX tests and main(), DW quirk/RX/loopback tests, drains
# under line faults, helpers.
set(UART_ASYNC_TESTS ${UART_TESTS_DIR}/test_uart_async.c
    ${UART_TESTS_DIR}/test_uart_async_quirks.c ${UART_TESTS_DIR}/test_uart_async_faults.c
    ${UART_TESTS_DIR}/test_uart_async_util.c)
host_test(uart_async ${UART_ASYNC_TESTS}
          ${UART_ASYNC_SRC} ${UART_DRV}/ns16550.c ${SRC}/lib/ring.c ${UART_FAKES})

# The same with a 256-byte TX ring, so that writers block on a full ring.
host_test(uart_async_ring256 ${UART_ASYNC_TESTS}
          ${UART_ASYNC_SRC} ${UART_DRV}/ns16550.c ${SRC}/lib/ring.c ${UART_FAKES})
target_compile_definitions(test_uart_async_ring256 PRIVATE UART_TX_RING_SIZE=256)

# Races against the interrupt: taken at a seeded choice of register
# accesses and ring calls (the backend's ring_push/ring_pop wrapped).
host_test(uart_async_races ${UART_TESTS_DIR}/test_uart_async_races.c
          ${UART_TESTS_DIR}/test_uart_async_util.c
          ${UART_ASYNC_SRC} ${UART_DRV}/ns16550.c ${SRC}/lib/ring.c ${UART_FAKES})
target_compile_definitions(test_uart_async_races PRIVATE UART_TX_RING_SIZE=256)
target_link_options(test_uart_async_races PRIVATE -Wl,--wrap=ring_push -Wl,--wrap=ring_pop)
# Under load: the TX counters' sums across writes, interrupts and resets,
# and the RX budget against a flood faster than the handler.
host_test(uart_async_load ${UART_TESTS_DIR}/test_uart_async_load.c
          ${UART_TESTS_DIR}/test_uart_async_util.c
          ${UART_ASYNC_SRC} ${UART_DRV}/ns16550.c ${SRC}/lib/ring.c ${UART_FAKES})

host_test(uart_console ${UART_TESTS_DIR}/test_uart_console.c
          ${UART_DRV}/console.c ${UART_DRV}/ns16550.c ${UART_FAKES})

# The wire model (115200 baud, 16-byte FIFO) in fake time, alone and
# behind the register layer, over a fake cpu_acct_call.
host_test(wire_model ${UART_TESTS_DIR}/test_wire_model.c ${UART_TESTS_DIR}/test_wire_model_seam.c
          ${UART_TESTS_DIR}/fake_acct.c ${UART_DRV}/wire_model.c ${UART_DRV}/ns16550.c)
target_compile_definitions(test_wire_model PRIVATE WIRE_BAUD=115200 WIRE_FIFO=16)

# Both backends with the wire model (115200 baud, 16-byte FIFO) in front of
# a QEMU-like fake UART: line physics, THRE/TEMT timing, drain bounds.
foreach(backend async console)
  string(TOUPPER ${backend} _be)
  set(_src ${UART_DRV}/console.c)
  if(backend STREQUAL "async")
    set(_src ${UART_ASYNC_SRC} ${SRC}/lib/ring.c)
  endif()
  host_test(uart_wire_${backend} ${UART_TESTS_DIR}/test_uart_wire.c
            ${_src} ${UART_DRV}/ns16550.c ${UART_DRV}/wire_model.c ${UART_FAKES})
  target_compile_definitions(test_uart_wire_${backend} PRIVATE WIRE_BAUD=115200 WIRE_FIFO=16
                             BACKEND_${_be}=1)
endforeach()
