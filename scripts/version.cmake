# Writes OUT (version.h) with `git describe --always --dirty` of SRC,
# touching the file only when the version string changes.
execute_process(COMMAND git -C ${SRC} describe --always --dirty --tags
                OUTPUT_VARIABLE v OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR v STREQUAL "")
  set(v "unknown")
endif()
set(text "#define UARTBENCH_VERSION \"${v}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE ${OUT} "${text}")
endif()
