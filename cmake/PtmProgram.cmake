# ptm_add_program(TARGET LIB name [LTO | FORM lto|shared] [FLAGS flags...]
#                 SOURCES src...)
#
# Builds a program the way a user does: every source compiled by clang with the
# ptm plugin, linked against runtime library LIB, either its LTO bitcode form
# (LTO, or FORM lto: -flto, runtime fast paths inlined) or its shared form.
function(ptm_add_program target)
  cmake_parse_arguments(P "LTO" "LIB;FORM" "SOURCES;FLAGS;LINK" ${ARGN})
  if(P_FORM STREQUAL "lto")
    set(P_LTO TRUE)
  elseif(DEFINED P_FORM AND NOT P_FORM STREQUAL "shared")
    message(FATAL_ERROR "ptm_add_program(${target}): FORM is lto or shared")
  endif()
  add_executable(${target} ${P_SOURCES})
  add_dependencies(${target} ptm_plugin)
  set_source_files_properties(${P_SOURCES} TARGET_DIRECTORY ${target}
    PROPERTIES OBJECT_DEPENDS ${CMAKE_BINARY_DIR}/lib/libptm_plugin.so)
  target_compile_options(${target} PRIVATE
    -fplugin=$<TARGET_FILE:ptm_plugin> ${PTM_WARNING_FLAGS} ${P_FLAGS})
  target_include_directories(${target} PRIVATE ${PTM_INCLUDE_DIR})
  if(P_LTO)
    target_compile_options(${target} PRIVATE -flto)
    target_link_options(${target} PRIVATE -flto -fuse-ld=lld)
    target_link_libraries(${target} PRIVATE ptm_${P_LIB}_bc)
  else()
    target_link_libraries(${target} PRIVATE ptm_${P_LIB})
  endif()
  target_link_libraries(${target} PRIVATE ${P_LINK})
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
endfunction()
