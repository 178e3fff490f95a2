# Test programs built WITHOUT the plugin (C++ calling the ABI directly) and
# the tests that run them; test/unit, test/pool and test/stm use these.
#
# ptm_test_executable(NAME LIBTARGET [OPTIONS opts...] SOURCES src...)
#   NAME from SOURCES, linked against the runtime library target LIBTARGET,
#   with the repository and ptm.h on the include path, warnings on, the
#   optimization switches in effect (PTM_OPT_DEFINITIONS) and OPTIONS; the
#   binary lands in the current binary folder.
function(ptm_test_executable name libtarget)
  cmake_parse_arguments(T "" "" "OPTIONS;SOURCES" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_include_directories(${name} PRIVATE ${PTM_INCLUDE_DIR}
                                             ${CMAKE_SOURCE_DIR})
  target_compile_options(${name} PRIVATE ${PTM_WARNING_FLAGS} ${T_OPTIONS})
  target_compile_definitions(${name} PRIVATE ${PTM_OPT_DEFINITIONS})
  target_link_libraries(${name} PRIVATE ${libtarget} Threads::Threads)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY
                                           ${CMAKE_CURRENT_BINARY_DIR})
endfunction()

# ptm_labeled_test(NAME LABEL TIMEOUT COMMAND args...): a ctest test with
# its label (`ctest -L LABEL`) and time limit in seconds.
function(ptm_labeled_test name label timeout)
  add_test(NAME ${name} COMMAND ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS ${label} TIMEOUT ${timeout})
endfunction()
