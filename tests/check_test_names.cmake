# cmake -DPROGRAM=<Catch2 test program> -P check_test_names.cmake
# Fails when the program lists no test case, so a whole suite cannot drop out of ctest unseen, or
# when a case's name holds a ';': ctest's discovery cuts such a name into entries that match
# nothing.
execute_process(COMMAND "${PROGRAM}" --list-test-names-only
                OUTPUT_VARIABLE names RESULT_VARIABLE status)
if(NOT status MATCHES "^[0-9]+$")
  message(FATAL_ERROR "${PROGRAM} --list-test-names-only: ${status}")
endif()
# Mark each ';' before the text becomes a CMake list, in which ';' separates items.
string(REPLACE ";" "<semicolon>" names "${names}")
string(REGEX MATCHALL "[^\n]+" lines "${names}")
list(LENGTH lines count)
if(count EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} lists no test cases")
endif()
list(FILTER lines INCLUDE REGEX "<semicolon>")
if(lines)
  list(JOIN lines "\n  " cut)
  string(REPLACE "<semicolon>" ";" cut "${cut}")
  message(FATAL_ERROR "Test case names with a ';', which ctest's discovery cuts in two:\n  ${cut}")
endif()
message(STATUS "${count} test cases, none with a ';' in its name")
