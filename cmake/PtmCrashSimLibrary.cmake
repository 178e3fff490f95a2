# ptm_add_crash_sim_library(NAME)
#
# The test-only crash-simulator variant of persistent library NAME:
#   lib/libptm_NAME_crashsim.so   target ptm_NAME_crashsim
# built from libs/NAME.cpp and the runtime compiled again with
# PTM_PERSIST_HOOKS=1 (every clwb/sfence calls the simulator,
# runtime/crash_sim/) plus the simulator itself. The normal libraries are
# untouched (no hook, no cost). docs/crash_simulator.md.

function(ptm_add_crash_sim_runtime)
  if(TARGET ptm_runtime_crashsim_obj)
    return()
  endif()
  get_target_property(srcs ptm_runtime_obj SOURCES)
  set(abs)
  foreach(src IN LISTS srcs)
    list(APPEND abs ${CMAKE_SOURCE_DIR}/runtime/${src})
  endforeach()
  add_library(ptm_runtime_crashsim_obj OBJECT ${abs}
    ${CMAKE_SOURCE_DIR}/runtime/crash_sim/config.cpp
    ${CMAKE_SOURCE_DIR}/runtime/crash_sim/heap_probe.cpp
    ${CMAKE_SOURCE_DIR}/runtime/crash_sim/image.cpp
    ${CMAKE_SOURCE_DIR}/runtime/crash_sim/simulator.cpp)
  target_compile_options(ptm_runtime_crashsim_obj PRIVATE
    ${PTM_RUNTIME_COMPILE_OPTIONS} -DPTM_PERSIST_HOOKS=1)
  ptm_runtime_native(ptm_runtime_crashsim_obj)
  target_include_directories(ptm_runtime_crashsim_obj PRIVATE
    ${PTM_INCLUDE_DIR} ${CMAKE_SOURCE_DIR})
endfunction()

function(ptm_add_crash_sim_library name)
  ptm_add_crash_sim_runtime()
  set(t ptm_${name}_crashsim)
  add_library(${t}_obj OBJECT ${CMAKE_SOURCE_DIR}/libs/${name}.cpp)
  target_compile_definitions(${t}_obj PRIVATE PTM_LIBNAME="${name}"
                                              PTM_PERSIST_HOOKS=1)
  target_compile_options(${t}_obj PRIVATE ${PTM_RUNTIME_COMPILE_OPTIONS})
  target_include_directories(${t}_obj PRIVATE ${PTM_INCLUDE_DIR}
                                              ${CMAKE_SOURCE_DIR})
  add_library(${t} SHARED $<TARGET_OBJECTS:${t}_obj>
                          $<TARGET_OBJECTS:ptm_runtime_crashsim_obj>)
  target_link_options(${t} PRIVATE -flto -fuse-ld=lld -Wl,-z,defs)
  target_link_libraries(${t} PRIVATE Threads::Threads ${PTM_RUNTIME_LINK_LIBS})
  target_include_directories(${t} INTERFACE ${PTM_INCLUDE_DIR})
  set_target_properties(${t} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()
