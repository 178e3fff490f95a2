# What `cmake --install build --prefix P` installs (docs/install.md), in the
# usual places of GNUInstallDirs:
#   P/include/ptm.h, ptm_abi.h
#   P/lib/libptm_plugin.so, libptm_plugin_frontend.so   (found side by side)
#   P/lib/libptm_NAME.so, libptm_NAME.a                 (every library)
#   P/bin/ptm-config, ptm-pool, ptm-memcached
#   P/lib/cmake/ptm/      find_package(ptm CONFIG), ptm_target()
#   P/lib/pkgconfig/      ptm.pc, ptm-NAME.pc
#   P/share/doc/ptm/      README.md and docs/
# Nothing installed names the build or source tree: the installed ptm-config
# and .pc files find their prefix from their own location, the CMake package
# from its file's, and the installed binaries have no RPATH (the test
# install-tree checks all of it).
include(CMakePackageConfigHelpers)

set(PTM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ptm)
set(PTM_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(FILES ${PTM_INCLUDE_DIR}/ptm.h ${PTM_INCLUDE_DIR}/ptm_abi.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

# The plugin and its frontend companion, which it loads from its own
# directory (plugin/FrontendLoader.cpp).
install(TARGETS ptm_plugin EXPORT ptmTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS ptm_plugin_frontend
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# Every library of Makefile.libnames, both forms.
foreach(name IN LISTS PTM_LIBNAMES)
  install(TARGETS ptm_${name} ptm_${name}_bc EXPORT ptmTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endforeach()

install(TARGETS ptm-pool ptm-memcached RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS ${CMAKE_BINARY_DIR}/tools/install/ptm-config
        DESTINATION ${CMAKE_INSTALL_BINDIR})

install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The CMake package. The same ptmConfig.cmake serves the install tree and the
# build tree (build/lib/cmake/ptm, so that CMAKE_PREFIX_PATH=build works like
# an install prefix): it only refers to files beside itself.
set(ptm_build_cmakedir ${CMAKE_BINARY_DIR}/lib/cmake/ptm)
string(REPLACE ";" " " PTM_CONFIG_LIBNAMES "${PTM_LIBNAMES}")
configure_package_config_file(cmake/ptmConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake-install/ptmConfig.cmake
  INSTALL_DESTINATION ${PTM_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/ptmConfig.cmake.in
  ${ptm_build_cmakedir}/ptmConfig.cmake
  INSTALL_DESTINATION ${ptm_build_cmakedir} INSTALL_PREFIX ${CMAKE_BINARY_DIR})
# 0.x: a new minor version may change the ABI between plugin and runtime.
write_basic_package_version_file(${ptm_build_cmakedir}/ptmConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
configure_file(cmake/ptm_target.cmake ${ptm_build_cmakedir}/ptm_target.cmake
               COPYONLY)
export(EXPORT ptmTargets NAMESPACE ptm::
       FILE ${ptm_build_cmakedir}/ptmTargets.cmake)
install(EXPORT ptmTargets NAMESPACE ptm:: DESTINATION ${PTM_INSTALL_CMAKEDIR})
install(FILES ${CMAKE_BINARY_DIR}/cmake-install/ptmConfig.cmake
              ${ptm_build_cmakedir}/ptmConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/ptm_target.cmake
        DESTINATION ${PTM_INSTALL_CMAKEDIR})

# pkg-config: ptm.pc (the plugin and ptm.h) and one ptm-NAME.pc per library
# (LTO form; its variable shared_libs has the shared form's flags). prefix is
# ${pcfiledir}/<libdir/pkgconfig to prefix>, so the files work wherever the
# tree is.
file(RELATIVE_PATH PTM_PC_TO_PREFIX /prefix/${PTM_INSTALL_PKGCONFIGDIR} /prefix)
string(REGEX REPLACE "/$" "" PTM_PC_TO_PREFIX "${PTM_PC_TO_PREFIX}")
set(PTM_PC_INCLUDEDIR \${prefix}/${CMAKE_INSTALL_INCLUDEDIR})
set(PTM_PC_LIBDIR \${prefix}/${CMAKE_INSTALL_LIBDIR})
foreach(dir INCLUDEDIR LIBDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(PTM_PC_${dir} ${CMAKE_INSTALL_${dir}})
  endif()
endforeach()
set(ptm_pc_dir ${CMAKE_BINARY_DIR}/pkgconfig-install)
configure_file(cmake/ptm.pc.in ${ptm_pc_dir}/ptm.pc @ONLY)
set(ptm_pc_files ${ptm_pc_dir}/ptm.pc)
foreach(PTM_PC_LIBNAME IN LISTS PTM_LIBNAMES)
  configure_file(cmake/ptm-lib.pc.in ${ptm_pc_dir}/ptm-${PTM_PC_LIBNAME}.pc @ONLY)
  list(APPEND ptm_pc_files ${ptm_pc_dir}/ptm-${PTM_PC_LIBNAME}.pc)
endforeach()
install(FILES ${ptm_pc_files} DESTINATION ${PTM_INSTALL_PKGCONFIGDIR})
