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
# async test: TX tests and main(), DW quirk/RX/loopback tests, helpers.
set(UART_ASYNC_TESTS ${UART_TESTS_DIR}/test_uart_async.c
    ${UART_TESTS_DIR}/test_uart_async_quirks.c ${UART_TESTS_DIR}/test_uart_async_util.c)
host_test(uart_async ${UART_ASYNC_TESTS}
          ${UART_ASYNC_SRC} ${UART_DRV}/ns16550.c ${SRC}/lib/ring.c ${UART_FAKES})

# The same with a 256-byte TX ring, so that writers block on a full ring.
host_test(uart_async_ring256 ${UART_ASYNC_TESTS}
          ${UART_ASYNC_SRC} ${UART_DRV}/ns16550.c ${SRC}/lib/ring.c ${UART_FAKES})
target_compile_definitions(test_uart_async_ring256 PRIVATE UART_TX_RING_SIZE=256)

# Under load: the TX counters' sums across writes, interrupts and resets,
# and the RX budget against a flood faster than the handler.
host_test(uart_async_load ${UART_TESTS_DIR}/test_uart_async_load.c
          ${UART_TESTS_DIR}/test_uart_async_util.c
          ${UART_ASYNC_SRC} ${UART_DRV}/ns16550.c ${SRC}/lib/ring.c ${UART_FAKES})

host_test(uart_console ${UART_TESTS_DIR}/test_uart_console.c
          ${UART_DRV}/console.c ${UART_DRV}/ns16550.c ${UART_FAKES})

# The wire model (115200 baud, 16-byte FIFO) in fake time.
host_test(wire_model ${UART_TESTS_DIR}/test_wire_model.c ${UART_DRV}/wire_model.c)
target_compile_definitions(test_wire_model PRIVATE WIRE_BAUD=115200 WIRE_FIFO=16)
