# ptm_target(<target> LIBRARY <name> [SHARED])
#
# Makes an existing executable or library target a ptm target: its C and C++
# sources are compiled with the ptm plugin (-fplugin), and it links runtime
# library <name> (one of PTM_LIBRARIES), by default in its LLVM bitcode form
# with LTO (-flto and lld at compile and link time, so that the runtime's fast
# paths inline into the program), with SHARED in its shared form. Part of
# ptm's CMake package (ptmConfig.cmake); the target's C and C++ compilers must
# be Clang PTM_CLANG_VERSION_MAJOR, the version the plugin was built for.
function(ptm_target target)
  cmake_parse_arguments(PARSE_ARGV 1 PTM "SHARED" "LIBRARY" "")
  string(REPLACE ";" " " known "${PTM_LIBRARIES}")
  if(PTM_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ptm_target(${target}): unknown arguments "
                        "'${PTM_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "ptm_target(${target}): no such target")
  endif()
  if(NOT PTM_LIBRARY)
    message(FATAL_ERROR "ptm_target(${target}): needs LIBRARY <name>, one of: "
                        "${known}")
  endif()
  if(NOT PTM_LIBRARY IN_LIST PTM_LIBRARIES)
    message(FATAL_ERROR "ptm_target(${target}): unknown library "
                        "'${PTM_LIBRARY}'; known: ${known}")
  endif()

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  foreach(lang C CXX)
    if(NOT lang IN_LIST languages)
      continue()
    endif()
    string(REGEX MATCH "^[0-9]+" major "${CMAKE_${lang}_COMPILER_VERSION}")
    if(NOT CMAKE_${lang}_COMPILER_ID STREQUAL "Clang"
       OR NOT major EQUAL PTM_CLANG_VERSION_MAJOR)
      message(FATAL_ERROR
        "ptm_target(${target}): the ptm plugin runs in Clang "
        "${PTM_CLANG_VERSION_MAJOR}, but the ${lang} compiler is "
        "${CMAKE_${lang}_COMPILER_ID} ${CMAKE_${lang}_COMPILER_VERSION} "
        "(configure with -DCMAKE_C_COMPILER=clang-${PTM_CLANG_VERSION_MAJOR} "
        "-DCMAKE_CXX_COMPILER=clang++-${PTM_CLANG_VERSION_MAJOR})")
    endif()
  endforeach()

  set(c_or_cxx "$<COMPILE_LANGUAGE:C,CXX>")
  target_compile_options(${target} PRIVATE
    "$<${c_or_cxx}:-fplugin=$<TARGET_FILE:ptm::plugin>>")
  if(PTM_SHARED)
    target_link_libraries(${target} PRIVATE ptm::${PTM_LIBRARY}_shared)
  else()
    target_compile_options(${target} PRIVATE "$<${c_or_cxx}:-flto>")
    target_link_options(${target} PRIVATE -flto -fuse-ld=lld)
    target_link_libraries(${target} PRIVATE ptm::${PTM_LIBRARY})
  endif()
endfunction()
