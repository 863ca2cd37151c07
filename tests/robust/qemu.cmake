# Hostile input and secondary harts on QEMU (docs/robustness-qemu.md).
# Included from tests/robust/CMakeLists.txt; the images are those of
# tests/qemu (built under ${CMAKE_BINARY_DIR}/images/<name>).
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(ROBUST_IMAGES ${CMAKE_BINARY_DIR}/images)
set(ROBUST_OUT ${CMAKE_CURRENT_BINARY_DIR})

# RX flood + line breaks while the whole (quick) suite runs; realtime mode
# (guest time = host time, so the flood keeps its rate through the
# guest's idle time: ~25-30 KB/s, over twice a 115200 line). Each run
# takes ~14 s and about one core (QEMU's main loop wakes at every
# character time; the console's vCPU polls), so the runs go one at a
# time, each alone (RUN_SERIAL): a realtime guest can miss a drain's
# deadline while its vCPU waits for a core, and two runs at once fill
# both cores of a 2-core machine (where S14's tcdrain was seen to return
# EIO).
#
# S05, S30 and S31 depend on RX: with foreign bytes in their window they
# report INVALID reason=foreign-rx (S05's and S31's loopback reads return
# foreign bytes, QEMU feeding the external line during MCR loopback; S30
# reads a byte that arrived after its flush), checked by rx_flood.py;
# every other section must PASS.

# rx_flood_test(IMAGE args...): robust.rx-flood.IMAGE, IMAGE's run.
function(rx_flood_test image)
  add_test(NAME robust.rx-flood.${image}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/rx_flood.py
            --image-dir ${ROBUST_IMAGES}/${image} --log ${ROBUST_OUT}/rx-flood-${image}.log
            --mode realtime --budget 8388608 --flood-seconds 90 --timeout 150 ${ARGN})
  set_tests_properties(robust.rx-flood.${image} PROPERTIES
    LABELS "robustness;qemu" TIMEOUT 200 RUN_SERIAL TRUE)
endfunction()

rx_flood_test(qemu-virt-async)
rx_flood_test(qemu-virt-m-async)
# On the emulator's line (the image without the wire model): QEMU's 16550
# takes the flood at most one byte per character time, at a full FIFO it
# overruns; S32/S33's far end holds it while it streams. Every section
# PASS or INVALID, none FAIL (with the input unpaced, as QEMU 7.2 takes
# it, S10-S21 FAIL: tcdrain returns EIO while RX takes the CPU).
rx_flood_test(qemu-virt-async-nowire)
# The console polls RX only in S05/S30/S31; otherwise QEMU stops taking
# bytes once its FIFO holds one (chardev flow control), so the counted
# burst and the breaks after S43 would never reach the guest.
rx_flood_test(qemu-virt-console --burst 0 --breaks 0)

# Secondary harts: -smp 2 and -smp 4 under icount give the one-hart log
# from S00 on (absolute instret/cycle counts aside). Each test boots the
# image twice (~1-2 s each). Both modes compare results, not timing
# figures: the secondary harts' boot instructions move hart 0 against the
# timer's ticks (docs/robustness-qemu.md); each hart count's own runs are
# byte-identical (qemu.repro.smp2, qemu.repro.smp4).
set(smp_compare_qemu-virt-async --results-only)
set(smp_compare_qemu-virt-m-async --results-only)
foreach(image qemu-virt-async qemu-virt-m-async)
  foreach(smp 2 4)
    add_test(NAME robust.smp.${image}-smp${smp}
      COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/smp_check.py
              --image-dir ${ROBUST_IMAGES}/${image} --smp ${smp}
              --log-prefix ${ROBUST_OUT}/smp${smp}-${image} --timeout 60
              ${smp_compare_${image}})
    set_tests_properties(robust.smp.${image}-smp${smp} PROPERTIES
      LABELS "robustness;qemu" TIMEOUT 150)
  endforeach()
endforeach()
# S-mode: OpenSBI v1.1 (QEMU 7.2's firmware) keeps the secondary harts in
# its HSM wait loop with an IPI pending, where they spin and, under icount,
# drive the virtual clock; the kernel therefore moves them into hart_park
# with SBI HSM hart_start at boot (src/arch/riscv/harts.c). Parked there,
# they still take the odd firmware interrupt, whose instructions move the
# shared icount clock by a few hundred ns: in S-mode the results are
# compared (statuses, payload CRCs, byte counts), not the timing figures.
# M-mode: the parked harts sleep in wfi, yet most -smp 2 runs differ from
# the one-hart run by 100-200 ns in idle periods (docs/robustness-qemu.md):
# results compared there too.

# Their logs are checked after them by qemu.logs-check (tests/qemu).
uartbench_log_tests("^robust\\.(rx-flood|smp)\\.")
