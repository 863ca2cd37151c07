# Image rules shared by every board: privilege, linker script, raw .bin,
# version header, and for QEMU boards the run description and run targets.
# Included from the top-level CMakeLists.txt after boards/<board>/board.cmake.

target_compile_definitions(kernel PRIVATE PRIV_${BOARD_PRIV}=1)
target_link_options(kernel PRIVATE
  -L${CMAKE_SOURCE_DIR}/src/arch/riscv
  -T${CMAKE_SOURCE_DIR}/boards/${BOARD}/link.ld
  -Wl,-Map=${CMAKE_BINARY_DIR}/kernel.map)
set_property(TARGET kernel APPEND PROPERTY LINK_DEPENDS
  ${CMAKE_SOURCE_DIR}/boards/${BOARD}/link.ld
  ${CMAKE_SOURCE_DIR}/src/arch/riscv/sections.ld)

# Raw load image (what xfel writes to DRAM on the D1).
add_custom_command(TARGET kernel POST_BUILD
  COMMAND ${CMAKE_OBJCOPY} -O binary $<TARGET_FILE:kernel> ${CMAKE_BINARY_DIR}/kernel.bin
  BYPRODUCTS ${CMAKE_BINARY_DIR}/kernel.bin
  COMMENT "kernel.bin for ${BOARD}")

# version.h from `git describe --always --dirty`, rewritten only on change.
add_custom_target(version_header
  COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_SOURCE_DIR}
          -DOUT=${CMAKE_BINARY_DIR}/generated/version.h
          -P ${CMAKE_SOURCE_DIR}/scripts/version.cmake
  BYPRODUCTS ${CMAKE_BINARY_DIR}/generated/version.h)
add_dependencies(kernel version_header)

if(DEFINED BOARD_QEMU_MACHINE)
  include(${CMAKE_SOURCE_DIR}/scripts/qemu/qemu.cmake)
  # What scripts/qemu-run needs to boot this image: the project's QEMU; the
  # line: the emulator's (line time in its 16550, an image without the wire
  # model) or QEMU's instant UART with the wire model in front ("model");
  # the UART's model in QEMU (BOARD_QEMU_UART: 16550, sifive); the harts
  # QEMU adds to --smp (BOARD_QEMU_MONITOR_HARTS).
  if(NOT DEFINED BOARD_QEMU_MONITOR_HARTS)
    set(BOARD_QEMU_MONITOR_HARTS 0)
  endif()
  if(NOT DEFINED BOARD_QEMU_UART)
    set(BOARD_QEMU_UART 16550)
  endif()
  if(WIRE_BAUD EQUAL 0)
    set(_line device)
  else()
    set(_line model)
  endif()
  file(WRITE ${CMAKE_BINARY_DIR}/qemu.json
"{\"board\": \"${BOARD}\", \"backend\": \"${BACKEND}\", \"machine\": \"${BOARD_QEMU_MACHINE}\", \"bios\": \"${BOARD_QEMU_BIOS}\", \"kernel\": \"${CMAKE_BINARY_DIR}/kernel.elf\", \"icount_shift\": ${QEMU_ICOUNT_SHIFT}, \"qemu\": \"${UARTBENCH_QEMU}\", \"line\": \"${_line}\", \"monitor_harts\": ${BOARD_QEMU_MONITOR_HARTS}, \"uart\": \"${BOARD_QEMU_UART}\"}\n")
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(QEMU_RUN ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/qemu-run
      --image-dir ${CMAKE_BINARY_DIR} --log ${CMAKE_BINARY_DIR}/run.log)
  # Boot arguments for a run (an operating point, a section subset):
  # BOOTARGS="wire=3000000/1 sections=S32,S33" cmake --build DIR --target run
  add_custom_target(run
    COMMAND ${QEMU_RUN} --mode icount --append-env BOOTARGS
    DEPENDS kernel qemu USES_TERMINAL
    COMMENT "Booting ${BOARD}/${BACKEND} on QEMU (-icount shift=${QEMU_ICOUNT_SHIFT},sleep=off), log in run.log")
  # The same with one line per section as it ends instead of the raw log
  # (the main job's; the log is whole in run.log).
  add_custom_target(run-brief
    COMMAND ${QEMU_RUN} --mode icount --append-env BOOTARGS --progress
    DEPENDS kernel qemu USES_TERMINAL
    COMMENT "Booting ${BOARD}/${BACKEND} on QEMU (-icount shift=${QEMU_ICOUNT_SHIFT},sleep=off), a line per section, log in run.log")
  add_custom_target(run-realtime
    COMMAND ${QEMU_RUN} --mode realtime --append-env BOOTARGS
    DEPENDS kernel qemu USES_TERMINAL
    COMMENT "Booting ${BOARD}/${BACKEND} on QEMU in real time, log in run.log")
  # Report of the last run.log (Debian's python3 has matplotlib).
  find_program(REPORT_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
  add_custom_target(report
    COMMAND ${REPORT_PYTHON} ${CMAKE_SOURCE_DIR}/bench/report/report
            ${CMAKE_BINARY_DIR}/run.log -o ${CMAKE_BINARY_DIR}/report
    USES_TERMINAL
    COMMENT "Report of run.log in ${CMAKE_BINARY_DIR}/report")
  # Every backend of this board at full scale on this image's line, one
  # report (scripts/compare); this image's run.log is reused when complete.
  add_custom_target(compare
    COMMAND ${REPORT_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/compare --board ${BOARD} --wire ${_line}
            --reuse
    DEPENDS qemu USES_TERMINAL
    COMMENT "Every backend of ${BOARD}: build, boot, one report in build/compare")
  # The images without the wire model beside the Linux 8250 peer running
  # uartbench-hosted, all on the emulator's line (scripts/compare --wire
  # device --linux; qemu-virt only: the peer boots under OpenSBI).
  if(BOARD STREQUAL "qemu-virt")
    add_custom_target(linux-compare
      COMMAND ${REPORT_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/compare --board ${BOARD} --wire device
              --linux --no-starryos --also none --reuse --out ${CMAKE_SOURCE_DIR}/build/linux-compare
      DEPENDS qemu USES_TERMINAL
      COMMENT "qemu-virt without the wire model and the Linux peer on the emulator's line: build, boot, one report in build/linux-compare")
  endif()
  # The operating-point sweep of every backend of this board (scripts/sweep:
  # baud x FIFO depth x CPU clock, GNU parallel; resumable), its frontier in
  # build/sweep/sweep.md; sweep-quick: the handful of points CI runs.
  add_custom_target(sweep
    COMMAND ${REPORT_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/sweep --board ${BOARD}
            --out ${CMAKE_SOURCE_DIR}/build/sweep
    DEPENDS qemu USES_TERMINAL
    COMMENT "Operating-point sweep of ${BOARD}: logs and frontier in build/sweep")
  add_custom_target(sweep-quick
    COMMAND ${REPORT_PYTHON} ${CMAKE_SOURCE_DIR}/scripts/sweep --board ${BOARD} --quick
            --out ${CMAKE_SOURCE_DIR}/build/sweep-quick
    DEPENDS qemu USES_TERMINAL
    COMMENT "Quick operating-point sweep of ${BOARD}: logs and frontier in build/sweep-quick")
endif()
