# Test programs built WITHOUT the plugin (C++ calling the ABI directly) and
# the tests that run them; test/unit, test/pool and test/stm use these.
#
# ptm_test_executable(NAME LIBTARGET [SHARED_OBJECTS] [OPTIONS opts...]
#                     SOURCES src...)
#   NAME from SOURCES, linked against the runtime library target LIBTARGET,
#   with the repository and ptm.h on the include path, warnings on, the
#   optimization switches in effect (PTM_OPT_DEFINITIONS) and OPTIONS; the
#   binary lands in the current binary folder. SHARED_OBJECTS: SOURCES are
#   compiled once per folder and OPTIONS, in an object library every such
#   executable of the folder links (the pool tests build the same sources
#   against each library; LIBTARGET then may add nothing to the compile but
#   the include path, and NAME's compile settings must not change later).
function(ptm_test_executable name libtarget)
  cmake_parse_arguments(T "SHARED_OBJECTS" "" "OPTIONS;SOURCES" ${ARGN})
  set(target ${name})
  if(T_SHARED_OBJECTS)
    foreach(p INTERFACE_COMPILE_DEFINITIONS INTERFACE_COMPILE_OPTIONS)
      get_target_property(v ${libtarget} ${p})
      if(v)
        message(FATAL_ERROR "ptm_test_executable(${name} SHARED_OBJECTS): "
                            "${libtarget} has ${p} (${v})")
      endif()
    endforeach()
    string(MD5 key "${CMAKE_CURRENT_SOURCE_DIR};${T_SOURCES};${T_OPTIONS}")
    set(target ptm_test_objects_${key})
    add_executable(${name} $<TARGET_OBJECTS:${target}>)
    if(TARGET ${target})
      set(target) # (compiled already)
    else()
      add_library(${target} OBJECT ${T_SOURCES})
    endif()
  else()
    add_executable(${name} ${T_SOURCES})
  endif()
  if(target)
    target_include_directories(${target} PRIVATE ${PTM_INCLUDE_DIR}
                                                 ${CMAKE_SOURCE_DIR})
    target_compile_options(${target} PRIVATE ${PTM_WARNING_FLAGS}
                                             ${T_OPTIONS})
    target_compile_definitions(${target} PRIVATE ${PTM_OPT_DEFINITIONS})
  endif()
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

# Crafty's hardware-transaction path (PTM_HTM, runtime/htm/htm.h) is chosen
# by the CPU when left to `auto`: RTM where it works, the single global lock
# elsewhere. A test's verdict must not depend on the CPU, so each crafty test
# names its path: `-emulated` (PTM_HTM=emulate, every machine), `-rtm`
# (through test/with_rtm.sh: skipped, saying why, where the CPU has no usable
# RTM), and unsuffixed the single global lock (PTM_HTM=off, set here).
set(PTM_WITH_RTM ${CMAKE_CURRENT_LIST_DIR}/../test/with_rtm.sh)

# ptm_pin_htm_path(): call at the end of a folder's CMakeLists.txt. Every
# test of the folder whose name contains `crafty` and whose ENVIRONMENT sets
# no PTM_HTM gets PTM_HTM=off.
function(ptm_pin_htm_path)
  get_property(tests DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS tests)
    if(NOT t MATCHES "crafty")
      continue()
    endif()
    get_test_property(${t} ENVIRONMENT env)
    if(NOT env)
      set(env "")
    endif()
    if(NOT env MATCHES "PTM_HTM=")
      list(APPEND env PTM_HTM=off)
      set_tests_properties(${t} PROPERTIES ENVIRONMENT "${env}")
    endif()
  endforeach()
endfunction()

# ptm_rtm_copy(NAME [ENV vars...] COMMAND args...): test NAME running the
# command on RTM (PTM_HTM=rtm, and ENV) through test/with_rtm.sh, skipped
# where the CPU has none.
function(ptm_rtm_copy name)
  cmake_parse_arguments(R "" "" "ENV;COMMAND" ${ARGN})
  list(APPEND R_ENV PTM_HTM=rtm)
  add_test(NAME ${name} COMMAND ${PTM_WITH_RTM} ${R_COMMAND})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77
                       ENVIRONMENT "${R_ENV}")
endfunction()
