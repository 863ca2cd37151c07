# Included by tests/qemu/CMakeLists.txt (qemu_test() and the images are
# its): the boot arguments of the operating point and their refusals, and
# RX on the modelled line at other shapes, triggers, CPU clocks and clocks.
# A bad operating point stops the run before any section with status 101,
# naming the valid forms; an image without the model refuses wire= and
# peer=.
foreach(arg abc 115200 115200/17 9599/16 12000001/16 115200/16/2 115200/1/4 115200/16/8/1
            115200/0)
  string(REGEX REPLACE "[^0-9a-z]" "-" tag ${arg})
  qemu_test(bootarg.wire-${tag} qemu-virt-async 101 --timeout 30 --append wire=${arg}
    --expect "^bad boot argument wire=${arg}. valid forms: wire=BAUD/FIFO\\[/RXTRIG\\], BAUD 9600\\.\\.12000000, FIFO 1, 16, 32, 64 or 128, RXTRIG 1, 4, 8 or 14 "
    --reject "^=== \\[S00\\]")
endforeach()
foreach(arg bogus burst burst:0:1ms burst:65537:1ms burst:64:10 burst:64:10s burst:8:0us)
  string(REGEX REPLACE "[^0-9a-z]" "-" tag ${arg})
  qemu_test(bootarg.peer-${tag} qemu-virt-async 101 --timeout 30 --append peer=${arg}
    --expect "^bad boot argument peer=${arg}. valid forms: peer=off, peer=stream or peer=burst:N:T, "
    --reject "^=== \\[S00\\]")
endforeach()
qemu_test(bootarg.peer-burst-too-short qemu-virt-async 101 --timeout 30
  --append peer=burst:64:5ms
  --expect "^bad boot argument peer=burst:64:5ms: a burst of 64 bytes takes longer than its period at 115200 baud"
  --reject "^=== \\[S00\\]")
qemu_test(bootarg.sections-bad qemu-virt-async 101 --timeout 30
  --append sections=S10,S99
  --expect "^bad boot argument sections=S10,S99. valid forms: Sxx\\[,Syy...\\], Sxx one of S00,S05,S06,S10,S11,S12,S13,S14,S20,S21,S30,S31,S32,S33,S41,S42,S43,S40,S50$"
  --reject "^=== \\[S00\\]")
qemu_test(bootarg.peer-no-model qemu-virt-async-nowire 101 --timeout 30
  --append peer=stream
  --expect "^bad boot argument peer=stream: this image has no wire model "
  --reject "^=== \\[S00\\]")
set_tests_properties(qemu.bootarg.peer-no-model PROPERTIES ENVIRONMENT "UARTBENCH_LINE=instant")
# On the emulator's line the far end's traffic is QEMU's, not a boot argument.
qemu_test(bootarg.peer-device-line qemu-virt-async-nowire 101 --timeout 30
  --append peer=stream
  --expect "^bad boot argument peer=stream: this run's line is the emulator's \\(its baud, FIFO depth and far end are QEMU's: scripts/qemu-run --line, --far-end\\)$"
  --reject "^=== \\[S00\\]")
qemu_test(bootarg.rx-trigger-bad qemu-virt-async-nowire 101 --timeout 30
  --append rx_trigger=16
  --expect "^bad boot argument rx_trigger=16. valid forms: 1, 4, 8 or 14 "
  --reject "^=== \\[S00\\]")
# A trigger of the right form above the line's FIFO depth (1 byte).
qemu_test(bootarg.rx-trigger-over-fifo qemu-virt-async-nowire 101 --timeout 30
  --append rx_trigger=4
  --expect "^bad boot argument rx_trigger=4. valid values: 1, 4, 8 or 14, at most the FIFO depth \\(1\\)$"
  --reject "^=== \\[S00\\]")
set_tests_properties(qemu.bootarg.rx-trigger-over-fifo PROPERTIES ENVIRONMENT "UARTBENCH_LINE=115200/1")
qemu_test(bootarg.wire-clock-bad qemu-virt-async 101 --timeout 30
  --append wire_clock=fast
  --expect "^bad boot argument wire_clock=fast. valid forms: raw \\(the model's simulation runs on the guest's clock, the default\\), free \\(it takes no time on it\\)$"
  --reject "^=== \\[S00\\]")
qemu_test(bootarg.wire-clock-no-model qemu-virt-async-nowire 101 --timeout 30
  --append wire_clock=free
  --expect "^bad boot argument wire_clock=free: this image has no wire model "
  --reject "^=== \\[S00\\]")
set_tests_properties(qemu.bootarg.wire-clock-no-model PROPERTIES ENVIRONMENT "UARTBENCH_LINE=instant")
# The model's simulation runs on the guest's CPU: at 15.6 MHz and 115200
# baud, FIFO 16, it takes more than half of it. On the raw clock (the
# default) the model's time makes the async driver lose part of S32's
# stream; with the clock that leaves it out (wire_clock=free) it receives
# every byte.
qemu_test(rx.qemu-virt-async-clock-free qemu-virt-async 0 --timeout 60
  --icount-shift 6 --append "sections=S32 wire=115200/16 wire_clock=free"
  --expect "^  wire_clock=free$"
  --expect "^  diag=s32-rx sent=6553 received=6553 lost=0 "
  --expect "^  diag=s32-cpu .* model_cpu_pct=[5-9][0-9]\\.[0-9]{3} guest_cpu_pct=")
qemu_test(rx.qemu-virt-async-clock-raw qemu-virt-async 0 --timeout 60
  --icount-shift 6 --append "sections=S32 wire=115200/16"
  --expect "^  wire_clock=raw$"
  --expect "^  diag=s32-rx sent=6553 received=[0-9]+ lost=[1-9][0-9]* ")
# RX from the modelled far end at other traffic shapes and trigger levels:
# bursts lose nothing on any backend; at trigger 8 the interrupt designs
# take one RX interrupt per 8 bytes (the trigger reached the FCR and the
# model), the console has none; with peer=off S32 and S33 are SKIPPED.
foreach(backend IN LISTS UARTBENCH_BACKENDS)
  qemu_test(rx.qemu-virt-${backend}-burst qemu-virt-${backend} 0 --timeout 90
    --append "sections=S32,S33 peer=burst:64:10ms"
    --expect "^  wire_rx_trigger=1 peer=burst:64:10000000ns$"
    --expect "^  diag=s32-rx sent=6553 received=6553 lost=0 .* crc_check=match accounted=1 "
    --expect "^  section=S32 status=PASS ")
  if(backend STREQUAL "console")
    set(irqs "rx_irqs=na rx_irqs_per_byte=na")
  else()
    set(irqs "rx_irqs_per_byte=0\\.12[5-9]")
  endif()
  qemu_test(rx.qemu-virt-${backend}-trigger8 qemu-virt-${backend} 0 --timeout 90
    --append "sections=S32 wire=115200/16/8"
    --expect "^  wire_rx_trigger=8 peer=stream$"
    --expect "^  diag=s32-rx sent=6553 received=6553 lost=0 "
    --expect "^  diag=s32-cpu .* ${irqs} ")
endforeach()
# A slow CPU at a fast line (15.6 MHz, 12 Mbaud, FIFO 1): the stream
# overruns before the section's setup ends; the driver's overrun count
# still equals the model's (its baseline is taken before the stream).
qemu_test(rx.qemu-virt-async-slow-cpu qemu-virt-async 0 --timeout 60
  --icount-shift 6 --append "sections=S32,S33 wire=12000000/1"
  --expect "^  diag=s32-rx sent=6553 .* overruns_model=([1-9][0-9]*) overruns_driver=\\1 "
  --expect "^  diag=s33-rx sent=4096 .* overruns_model=([1-9][0-9]*) overruns_driver=\\1 "
  --expect "^  section=S32 status=PASS " --expect "^  section=S33 status=PASS ")
# The copier's RX copier task, woken by the stream, used to run between
# S32's account snapshot and its counter snapshot: the window's
# instructions underflowed and the model's share read 31014 %. The
# snapshots are taken with interrupts masked.
qemu_test(rx.qemu-virt-copier-slow-cpu-window qemu-virt-copier 0 --timeout 60
  --icount-shift 6 --append "sections=S32 wire=921600/1"
  --expect "^  diag=s32-cpu .* instructions=[0-9]{1,9} .* cpu_pct=([0-9]|[1-9][0-9])\\.[0-9]{3} "
  --expect "^  diag=s32-cpu .* model_cpu_pct=([0-9]|[1-9][0-9])\\.[0-9]{3} guest_cpu_pct="
  --expect "^  section=S32 status=PASS ")
qemu_test(rx.qemu-virt-async-peer-off qemu-virt-async 0 --timeout 60
  --append "sections=S32,S33 peer=off"
  --expect "^  diag=s32-skip reason=peer-off$" --expect "^  diag=s33-skip reason=peer-off$"
  --expect "^  section=S32 status=SKIPPED " --expect "^  section=S33 status=SKIPPED ")

