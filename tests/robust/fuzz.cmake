# libFuzzer targets (clang -fsanitize=fuzzer,address,undefined) over the
# host-testable parts: the ring buffer, the POSIX layer's argument checks
# and the UART driver's interrupt handler (tty core, async engine) on each
# lower half. Included from
# tests/robust/CMakeLists.txt in the host build.
#
# The host build's C compiler may be gcc, which has no libFuzzer, so the
# targets are compiled by custom commands with clang (one object per
# source, header dependencies through DEPFILE) and linked by clang.
#
# Each CTest entry runs its target for a fixed number of inputs (RUNS)
# from an empty corpus with a fixed seed: a few seconds, the same inputs
# every run. A crash leaves its input in <build>/tests/robust/fuzz/artifacts.
# Longer runs, corpora and reproducing a crash: docs/robustness.md.

find_program(FUZZ_CLANG NAMES clang clang-14)
if(NOT FUZZ_CLANG)
  message(FATAL_ERROR
    "clang not found: the fuzz targets (tests/robust/fuzz.cmake) need clang "
    "with libFuzzer. Install the Debian packages clang and libclang-rt-14-dev "
    "(scripts/install-deps does this).")
endif()

set(FUZZ_DIR ${CMAKE_CURRENT_BINARY_DIR}/fuzz)
set(FUZZ_SAN -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all)
set(FUZZ_CFLAGS -g -O1 -fno-omit-frame-pointer ${FUZZ_SAN}
    -Wall -Wextra -Werror)
set(FUZZ_INCLUDES -I${PROJECT_SOURCE_DIR}/include -I${PROJECT_SOURCE_DIR}/tests/host
    -I${PROJECT_SOURCE_DIR}/src/drivers/uart)
set(FUZZ_SEED 1)
set(FUZZ_TIMEOUT_S 10)    # one input taking longer is a hang (-timeout)

# Configure-time probe: libFuzzer's runtime (libclang_rt.fuzzer) comes
# from libclang-rt-14-dev, which apt only recommends with clang.
file(MAKE_DIRECTORY ${FUZZ_DIR}/artifacts)
file(WRITE ${FUZZ_DIR}/probe.c
  "#include <stddef.h>\n#include <stdint.h>\n"
  "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n")
execute_process(
  COMMAND ${FUZZ_CLANG} ${FUZZ_SAN} ${FUZZ_DIR}/probe.c -o ${FUZZ_DIR}/probe
  RESULT_VARIABLE _fuzz_probe_rc ERROR_VARIABLE _fuzz_probe_err OUTPUT_QUIET)
if(NOT _fuzz_probe_rc EQUAL 0)
  message(FATAL_ERROR
    "${FUZZ_CLANG} cannot link a -fsanitize=fuzzer,address,undefined program:\n"
    "${_fuzz_probe_err}\nInstall the Debian package libclang-rt-14-dev "
    "(libFuzzer and sanitizer runtimes for clang 14; scripts/install-deps does this).")
endif()

# fuzz_target(NAME RUNS n SOURCES src... [DEFINES d...] [TEST t]): build
# fuzz/NAME with clang and register the CTest entry robust.NAME (or
# robust.t) running n inputs.
function(fuzz_target name)
  cmake_parse_arguments(F "" "RUNS;TEST" "SOURCES;DEFINES" ${ARGN})
  if(NOT F_TEST)
    set(F_TEST ${name})
  endif()
  set(objdir ${FUZZ_DIR}/${name}.dir)
  set(objs)
  set(defs -DHOST_TEST=1)
  foreach(d IN LISTS F_DEFINES)
    list(APPEND defs -D${d})
  endforeach()
  foreach(src IN LISTS F_SOURCES)
    get_filename_component(base ${src} NAME_WE)
    set(obj ${objdir}/${base}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${objdir}
      COMMAND ${FUZZ_CLANG} ${FUZZ_CFLAGS} ${defs} ${FUZZ_INCLUDES}
              -MD -MF ${obj}.d -c ${src} -o ${obj}
      DEPENDS ${src}
      DEPFILE ${obj}.d
      COMMENT "fuzz ${name}: ${base}.c (clang)"
      VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  set(bin ${FUZZ_DIR}/${name})
  add_custom_command(OUTPUT ${bin}
    COMMAND ${FUZZ_CLANG} ${FUZZ_SAN} ${objs} -o ${bin}
    DEPENDS ${objs}
    COMMENT "fuzz ${name}: link (libFuzzer, ASan, UBSan)"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${bin})
  add_test(NAME robust.${F_TEST}
    COMMAND ${bin} -runs=${F_RUNS} -seed=${FUZZ_SEED} -timeout=${FUZZ_TIMEOUT_S}
            -print_final_stats=1 -artifact_prefix=${FUZZ_DIR}/artifacts/${name}-)
  set_tests_properties(robust.${F_TEST} PROPERTIES LABELS robustness TIMEOUT 120)
endfunction()

set(FUZZ_SRC_DIR ${CMAKE_CURRENT_LIST_DIR})

# Ring buffer: random operation sequences against a byte-queue model.
fuzz_target(fuzz_ring RUNS 100000 SOURCES ${FUZZ_SRC_DIR}/fuzz_ring.c)

# POSIX layer: argument validation against the mock backend (the target,
# the input decoder, the reference model, the data path and control calls).
fuzz_target(fuzz_posix RUNS 200000 SOURCES ${FUZZ_SRC_DIR}/fuzz_posix.c
  ${FUZZ_SRC_DIR}/fuzz_posix_input.c ${FUZZ_SRC_DIR}/fuzz_posix_model.c
  ${FUZZ_SRC_DIR}/fuzz_posix_io.c ${FUZZ_SRC_DIR}/fuzz_posix_ctl.c
  ${PROJECT_SOURCE_DIR}/tests/host/fake_backend.c
  ${PROJECT_SOURCE_DIR}/src/io/posix.c ${PROJECT_SOURCE_DIR}/src/io/posix_ctl.c ${PROJECT_SOURCE_DIR}/src/io/posix_time.c
  ${PROJECT_SOURCE_DIR}/src/io/read_timing.c)

# The UART driver's interrupt handler on fuzzer-chosen register values, on
# each lower half (robust.fuzz_uart_isr.<lower>): fuzz_uart_isr.c includes
# the tty core's and the async engine's files (src/drivers/uart) to reset
# their state between inputs and to see the port and the engine's state;
# the input decoder and fake kernel, and the fake UART, are files of their
# own; the CPU accounts are tests/host's.
set(FUZZ_DRV ${PROJECT_SOURCE_DIR}/src/drivers/uart)
foreach(lower ns16550 dw_apb)
  set(dw 0)
  if(lower STREQUAL "dw_apb")
    set(dw 1)
  endif()
  fuzz_target(fuzz_uart_isr_${lower} RUNS 200000 TEST fuzz_uart_isr.${lower}
    SOURCES ${FUZZ_SRC_DIR}/fuzz_uart_isr.c ${FUZZ_SRC_DIR}/fuzz_uart_isr_ops.c
    ${FUZZ_SRC_DIR}/fuzz_uart_isr_kernel.c ${FUZZ_SRC_DIR}/fuzz_uart_isr_mmio.c
    ${PROJECT_SOURCE_DIR}/tests/host/fake_acct.c ${FUZZ_DRV}/uart_cfg.c
    ${PROJECT_SOURCE_DIR}/src/kernel/waitq.c
    ${PROJECT_SOURCE_DIR}/src/kernel/console.c
    DEFINES "UART_LOWER_HEADER=\"lower_${lower}.h\"" "UART_ENGINE_HEADER=\"engine_async.h\""
    FUZZ_LOWER_DW=${dw})
endforeach()

# Report tool (Python): parse_bytes and analyze on random bytes and on
# mutated reference logs, fixed seed and case count. Debian's python3, as
# for the report tool's own tests (tests/host/report).
find_program(ROBUST_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT ROBUST_PYTHON)
  message(FATAL_ERROR "/usr/bin/python3 not found: the report fuzz test needs the Debian "
                      "package python3 (scripts/install-deps).")
endif()
add_test(NAME robust.report_fuzz
  COMMAND ${ROBUST_PYTHON} -m unittest -v test_report_fuzz
  WORKING_DIRECTORY ${CMAKE_CURRENT_LIST_DIR})
set_tests_properties(robust.report_fuzz PROPERTIES LABELS robustness TIMEOUT 300
  ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
