# The Debian package (docs/install.md): `cpack -G DEB` in the build tree,
# after the build, packs what `cmake --install` installs, under /usr.
#
# Depends: the plugin runs inside Debian's clang-N (and its LLVM), programs
# are linked with lld-N (-fuse-ld=lld) and libpmem (-lpmem, hence the -dev
# package; the shared libraries and tools need libpmem1 at run time, at least
# the version they were built against).
set(CPACK_PACKAGE_NAME ptm)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "automatic persistent-memory transactions for C and C++ (Clang plugin and runtimes)")
set(CPACK_PACKAGE_DESCRIPTION
    "Mark critical sections with PTM_BEGIN()/PTM_END(), compile with \
clang-${LLVM_VERSION_MAJOR} and the ptm plugin, link one runtime library: every \
access in the transactions goes through the runtime. Includes ptm.h, the \
plugin, every STM and persistent library (shared and LTO bitcode forms), \
ptm-config, ptm-pool, ptm-memcached, a CMake package and pkg-config files.")
set(PTM_PACKAGE_CONTACT "ptm developers <ptm@localhost>" CACHE STRING
    "Maintainer field of the Debian package")
set(CPACK_PACKAGE_CONTACT "${PTM_PACKAGE_CONTACT}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)

# libpmem's version: from its pkg-config file when present (libpmem-dev).
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PTM_PC_LIBPMEM QUIET libpmem)
endif()
if(PTM_PC_LIBPMEM_VERSION)
  set(ptm_libpmem1 "libpmem1 (>= ${PTM_PC_LIBPMEM_VERSION})")
else()
  set(ptm_libpmem1 "libpmem1")
endif()
set(ptm_llvm_min "1:${LLVM_VERSION_MAJOR}.${LLVM_VERSION_MINOR}")
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "clang-${LLVM_VERSION_MAJOR} (>= ${ptm_llvm_min}), lld-${LLVM_VERSION_MAJOR} (>= ${ptm_llvm_min}), ${ptm_libpmem1}, libpmem-dev, libc6, libstdc++6, libgcc-s1")

include(CPack)
