# Static analysis of the image sources: cppcheck and clang-tidy over every
# .c file under src/ (src/arch included) and bench/, for two real image
# configurations, and of the Linux platform shim (bench/hosted/) for the
# host it builds on. Included from tests/robust/CMakeLists.txt in the host
# build, where it registers the CTest entries robust.cppcheck and
# robust.clang_tidy; CTest runs this same file in script mode (cmake -P),
# which globs the sources at test time (a file added later is analysed
# without reconfiguring), runs the tool and fails on any finding.
#
# Configurations (the defines and include directories of a real build,
# see CMakeLists.txt, scripts/image.cmake and boards/*/board.cmake):
#   qemu-virt: PRIV_S, wire model 115200/16, async backend, NS16550A lower half
#   d1:        PRIV_M, no wire model, console backend, DW APB lower half
#              (clang-tidy: src/ only, see below; cppcheck: every file)
#   hosted:    bench/hosted/*.c only, with the host's C library and the
#              shim's headers first (bench/hosted/CMakeLists.txt)
# version.h, generated at build time, is replaced by a stub. clang-tidy
# analyses a d1 file only where it preprocesses (clang -E) to other text
# than in qemu-virt: the same text gives the same findings.
#
# Suppressions: each one is justified where it is, either below (a whole
# check) or in a comment at the line in the source (cppcheck-suppress,
# NOLINT). Run by hand: ctest -R 'robust\.(cppcheck|clang_tidy)' -V.

if(CMAKE_SCRIPT_MODE_FILE)
  # ---- script mode: cmake -DSTATIC_TOOL=... -DSTATIC_EXE=... -DSRC=...
  #      -DOUT=... -P static.cmake
  file(GLOB_RECURSE _files LIST_DIRECTORIES false ${SRC}/src/*.c ${SRC}/bench/*.c)
  list(FILTER _files EXCLUDE REGEX "/bench/hosted/")
  list(SORT _files)
  file(GLOB _files_hosted LIST_DIRECTORIES false ${SRC}/bench/hosted/*.c)
  list(SORT _files_hosted)
  set(_files_qemu-virt ${_files})
  # clang-tidy's d1: src/ alone. bench/ has no preprocessor conditional
  # of a board, privilege, design or line (checked here), so its code has
  # the same paths in both image configurations, up to the constants it
  # is given (the line's baud, the design's name); what d1 changes under
  # it is in the headers' inline functions (the CSRs' names, the register
  # seam's stride and width), which the d1 pass analyses through the src/
  # files using them.
  set(_files_d1 ${_files})
  if(STATIC_TOOL STREQUAL "clang-tidy")
    list(FILTER _files_d1 INCLUDE REGEX "^${SRC}/src/")
    file(GLOB_RECURSE _bench_all LIST_DIRECTORIES false ${SRC}/bench/*.c ${SRC}/bench/*.h)
    list(FILTER _bench_all EXCLUDE REGEX "/bench/hosted/")
    foreach(_f IN LISTS _bench_all)
      file(STRINGS ${_f} _cond REGEX
           "^[ \t]*#[ \t]*(el)?if.*(PRIV_|WIRE_|BACKEND_|BOARD_|UARTBENCH_BOARD|UART_LOWER|UART_ENGINE|__riscv)")
      if(_cond)
        list(GET _cond 0 _c)
        message(FATAL_ERROR "static analysis: ${_f} has a configuration's conditional (${_c}); "
                            "clang-tidy analyses bench/ in qemu-virt only: add the file to its d1 pass")
      endif()
    endforeach()
  endif()
  list(APPEND _files ${_files_hosted})
  list(LENGTH _files _nfiles)
  if(_nfiles EQUAL 0)
    message(FATAL_ERROR "static analysis: no .c files under ${SRC}/src and ${SRC}/bench")
  endif()
  file(WRITE ${OUT}/generated/version.h "#define UARTBENCH_VERSION \"static-analysis\"\n")

  set(_cfg_qemu-virt -DPRIV_S=1 -DWIRE_BAUD=115200 -DWIRE_FIFO=16
      "-DUARTBENCH_BOARD=\"qemu-virt\"" "-DUARTBENCH_BACKEND=\"async\"" -DBACKEND_ASYNC=1
      "-DUART_LOWER_HEADER=\"lower_ns16550.h\"" "-DUART_ENGINE_HEADER=\"engine_async.h\""
      -I${SRC}/src/drivers/uart
      -I${SRC}/include -I${OUT}/generated -I${SRC}/boards/qemu-virt)
  set(_cfg_d1 -DPRIV_M=1 -DWIRE_BAUD=0 -DWIRE_FIFO=16
      "-DUARTBENCH_BOARD=\"d1\"" "-DUARTBENCH_BACKEND=\"console\"" -DBACKEND_CONSOLE=1
      "-DUART_LOWER_HEADER=\"lower_dw_apb.h\"" "-DUART_ENGINE_HEADER=\"engine_console.h\""
      -I${SRC}/src/drivers/uart
      -I${SRC}/include -I${OUT}/generated -I${SRC}/boards/d1)
  set(_cfg_hosted -D_GNU_SOURCE -I${SRC}/bench/hosted/include -I${SRC}/include
      -I${OUT}/generated)
  # clang-tidy's target: the image's (riscv64, picolibc), or the host's.
  set(_target --target=riscv64-unknown-elf -march=rv64imac -mabi=lp64 -mcmodel=medany
      -ffreestanding -isystem ${PICOLIBC_INCLUDE})
  set(_target_qemu-virt ${_target})
  set(_target_d1 ${_target})
  set(_target_hosted "")

  set(_failed "")
  set(_same 0)
  foreach(_cfg qemu-virt d1 hosted)
    if(STATIC_TOOL STREQUAL "cppcheck")
      # --platform=unix64: the sizes of rv64 lp64 (long and pointers 64 bits).
      # No system include directory: cppcheck models the C library from its
      # std.cfg; given picolibc's headers it stops at their "#error
      # Endianess not declared" (it has not the compiler's predefined
      # __riscv macros), so the missing system headers are expected:
      # missingIncludeSystem is suppressed, nothing else. The image's
      # configurations get __riscv so cppcheck reads the image's code
      # (harts_many, spinlocks), not the host tests' one-hart stand-ins.
      set(_cpp_target "")
      if(NOT _cfg STREQUAL "hosted")
        set(_cpp_target -D__riscv=1 -D__riscv_xlen=64)
      endif()
      execute_process(
        COMMAND ${STATIC_EXE} --enable=warning,style,performance,portability
                --error-exitcode=1 --inline-suppr --std=c11 --platform=unix64 -q
                --suppress=missingIncludeSystem
                "--template={file}:{line}:{column}: {severity}: {message} [{id}]"
                ${_cpp_target} ${_cfg_${_cfg}} ${_files_${_cfg}}
        RESULT_VARIABLE _rc)
      if(NOT _rc EQUAL 0)
        list(APPEND _failed "cppcheck (${_cfg})")
      endif()
    else()
      # The real target and C library: clang for riscv64-unknown-elf with
      # picolibc's headers (inline asm and CSR names parse; nothing is
      # assembled). One process per file: clang-tidy 14's valist checker
      # reports "va_arg() is called on an uninitialized va_list" in every
      # file after the first of a multi-file run (state kept across
      # translation units), never when the file is analysed alone.
      # -Wno-unknown-attributes: the image is built by gcc, and gcc-only
      # attributes (noipa) are unknown to clang, not a finding.
      # A d1 translation unit that preprocesses to the same text as the
      # qemu-virt one (the file has nothing either configuration changes)
      # would give the same findings: analysed once, in qemu-virt.
      foreach(_f IN LISTS _files_${_cfg})
        # A TX engine's files (engine_<name>.c, engine_<name>_*.c) with their
        # own ops table, as their image builds them.
        foreach(_pp qemu-virt d1 hosted)
          set(_args_${_pp} ${_cfg_${_pp}})
          get_filename_component(_name ${_f} NAME)
          if(_name MATCHES "^engine_([a-z]+)")
            list(TRANSFORM _args_${_pp} REPLACE "^-DUART_ENGINE_HEADER=.*$"
                 "-DUART_ENGINE_HEADER=\"engine_${CMAKE_MATCH_1}.h\"")
          endif()
        endforeach()
        if(_cfg STREQUAL "d1")
          foreach(_pp qemu-virt d1)
            execute_process(
              COMMAND ${STATIC_CLANG} -E ${_target_${_pp}} ${_args_${_pp}} ${_f}
              OUTPUT_FILE ${OUT}/pp-${_pp}.i ERROR_QUIET RESULT_VARIABLE _pp_rc_${_pp})
          endforeach()
          execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/pp-qemu-virt.i
                          ${OUT}/pp-d1.i RESULT_VARIABLE _differ)
          if(_pp_rc_qemu-virt EQUAL 0 AND _pp_rc_d1 EQUAL 0 AND _differ EQUAL 0)
            math(EXPR _same "${_same} + 1")
            continue()
          endif()
        endif()
        execute_process(
          COMMAND ${STATIC_EXE} --quiet --config-file=${TIDY_CONFIG}
                  "--header-filter=^${SRC}/(include|src|bench|boards)/" ${_f}
                  -- ${_target_${_cfg}} -Wall -Wextra -Wno-unknown-attributes
                  ${_args_${_cfg}}
          RESULT_VARIABLE _rc)
        if(NOT _rc EQUAL 0)
          file(RELATIVE_PATH _rel ${SRC} ${_f})
          list(APPEND _failed "clang-tidy ${_rel} (${_cfg})")
        endif()
      endforeach()
    endif()
  endforeach()
  if(_failed)
    string(REPLACE ";" "\n  " _failed "${_failed}")
    message(FATAL_ERROR "static analysis findings (see above) in:\n  ${_failed}")
  endif()
  if(STATIC_TOOL STREQUAL "cppcheck")
    message(STATUS "cppcheck: ${_nfiles} files, 3 configurations, no findings")
  else()
    message(STATUS "clang-tidy: ${_nfiles} files, 3 configurations, no findings "
                   "(bench/ in qemu-virt only; ${_same} d1 files of src/ the same as in "
                   "qemu-virt once preprocessed, analysed once)")
  endif()
  return()
endif()

# ---- project mode: find the tools, register the tests ---------------------

find_program(STATIC_CPPCHECK cppcheck)
if(NOT STATIC_CPPCHECK)
  message(FATAL_ERROR "cppcheck not found: install the Debian package cppcheck "
                      "(scripts/install-deps does this).")
endif()
find_program(STATIC_CLANG_TIDY NAMES clang-tidy clang-tidy-14)
if(NOT STATIC_CLANG_TIDY)
  message(FATAL_ERROR "clang-tidy not found: install the Debian package clang-tidy "
                      "(scripts/install-deps does this).")
endif()
find_program(STATIC_CLANG NAMES clang clang-14)
if(NOT STATIC_CLANG)
  message(FATAL_ERROR "clang not found: install the Debian package clang "
                      "(scripts/install-deps does this).")
endif()
set(STATIC_PICOLIBC_INCLUDE /usr/lib/picolibc/riscv64-unknown-elf/include)
if(NOT EXISTS ${STATIC_PICOLIBC_INCLUDE}/stdio.h)
  message(FATAL_ERROR "${STATIC_PICOLIBC_INCLUDE}/stdio.h not found: clang-tidy analyses "
                      "with picolibc's headers; install the Debian package "
                      "picolibc-riscv64-unknown-elf (scripts/install-deps does this).")
endif()

# clang-tidy checks. Left out, each for a reason:
#  - bugprone-easily-swappable-parameters: style advice about adjacent
#    parameters of one type (counts, addresses), not a bug finder;
#  - clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling:
#    asks for C11 Annex K (memcpy_s, snprintf_s), which picolibc (like
#    glibc) does not have; bounds are checked by the code and the fuzzers.
# bugprone-reserved-identifier allows the linker script's symbols
# (src/arch/riscv/sections.ld): C code must use their reserved names.
set(STATIC_OUT ${CMAKE_CURRENT_BINARY_DIR}/static)
file(WRITE ${STATIC_OUT}/clang-tidy.yaml [=[
Checks: >-
  bugprone-*,clang-analyzer-*,
  -bugprone-easily-swappable-parameters,
  -clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling
WarningsAsErrors: '*'
CheckOptions:
  - key: bugprone-reserved-identifier.AllowedIdentifiers
    value: '__stack_bottom;__stack_top;__bss_start;__bss_end;__zero_start;__image_end;__tls_base;__tls_size;__kernel_app_start;__boot_hooks_start;__boot_hooks_end;__bootarg_keys_start;__bootarg_keys_end'
]=])
add_test(NAME robust.cppcheck
  COMMAND ${CMAKE_COMMAND} -DSTATIC_TOOL=cppcheck -DSTATIC_EXE=${STATIC_CPPCHECK}
          -DSRC=${PROJECT_SOURCE_DIR} -DOUT=${STATIC_OUT} -P ${CMAKE_CURRENT_LIST_FILE})
add_test(NAME robust.clang_tidy
  COMMAND ${CMAKE_COMMAND} -DSTATIC_TOOL=clang-tidy -DSTATIC_EXE=${STATIC_CLANG_TIDY}
          -DSRC=${PROJECT_SOURCE_DIR} -DOUT=${STATIC_OUT}
          -DPICOLIBC_INCLUDE=${STATIC_PICOLIBC_INCLUDE} -DTIDY_CONFIG=${STATIC_OUT}/clang-tidy.yaml
          -DSTATIC_CLANG=${STATIC_CLANG}
          -P ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(robust.cppcheck PROPERTIES LABELS robustness TIMEOUT 300)
# The longest test of the suite (about a minute, one process): started
# first (ctest -j), so that it runs beside the others, not alone at the end.
set_tests_properties(robust.clang_tidy PROPERTIES LABELS robustness TIMEOUT 900 COST 200)

# The layers, from the compiler's call graph (scripts/call-circles): no
# circle of files that call each other (a header and its own .c apart):
# each design on qemu-virt without the in-guest wire model, the copier
# with it (the model's four files layered: wire_priv.h), the D1's M-mode
# copier, the SiFive UART's console.
find_program(LAYERS_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
foreach(image qemu-virt-async-nowire qemu-virt-console-nowire qemu-virt-copier-nowire
              qemu-virt-copier d1-copier qemu-sifive-u-console)
  add_test(NAME robust.call-circles.${image}
    COMMAND ${LAYERS_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/call-circles --check
            --image-dir ${CMAKE_BINARY_DIR}/images/${image})
  set_tests_properties(robust.call-circles.${image} PROPERTIES LABELS robustness TIMEOUT 300)
endforeach()
