# Runs lupdate over the app's sources into a scratch .ts file and fails when a string would be
# filed under a context the app never asks for at run time: lupdate warns about tr() calls
# outside a class with translation functions, and files them under the bare namespace.
# cmake -DLUPDATE=... -DSOURCE_DIR=... -DWORK_DIR=... -P check-contexts.cmake
set(ts "${WORK_DIR}/contexts-check.ts")
file(REMOVE "${ts}")
execute_process(COMMAND "${LUPDATE}" -silent "${SOURCE_DIR}/ui" "${SOURCE_DIR}/app/gui" -ts "${ts}"
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "lupdate failed (${result}):\n${output}")
endif()
if(output MATCHES "lacks Q_OBJECT|Cannot invoke tr")
  message(FATAL_ERROR "tr() without a translation context:\n${output}")
endif()
file(READ "${ts}" catalogue)
string(REGEX MATCHALL "<name>ratelab(::ui)?</name>" bare "${catalogue}")
if(bare)
  message(FATAL_ERROR "strings filed under a bare namespace context: ${bare}")
endif()
string(REGEX MATCHALL "<source>" sources "${catalogue}")
list(LENGTH sources count)
if(count LESS 100)
  message(FATAL_ERROR "lupdate found only ${count} strings in ${SOURCE_DIR}")
endif()
message(STATUS "${count} strings, every one in a class or named context")
