# ptm_add_runtime_library(NAME SOURCES...)
#
# Builds one runtime library in the two forms of the build tree contract:
#   lib/libptm_NAME.so   target ptm_NAME      (shared, for --ldflags NAME --shared)
#   lib/libptm_NAME.a    target ptm_NAME_bc   (LLVM bitcode, for -flto inlining)
# Every object is compiled once, as bitcode (-flto): the archive keeps the
# bitcode so the runtime's fast paths inline into programs at link time, and
# the shared library is LTO-linked from the same objects. Both contain the
# algorithm-independent runtime (object library ptm_runtime_obj).
# Installed and exported (cmake/PtmInstall.cmake) as ptm::NAME (the bitcode
# archive) and ptm::NAME_shared; a C program linking the archive also needs
# the C++ runtime, hence stdc++ and m in its interface.
set(PTM_RUNTIME_COMPILE_OPTIONS ${PTM_WARNING_FLAGS} -O2 -flto -fPIC
    -fno-plt -ftls-model=initial-exec ${PTM_PATH_MAP_FLAGS})

# Pools are mapped with PMDK libpmem.
list(APPEND PTM_RUNTIME_LINK_LIBS pmem)

# eADR: the caches are in the persistence domain, clwb becomes a no-op
# (runtime/persist/persist.h). Compile-time, for the whole runtime.
option(PTM_EADR "Build the runtime for eADR platforms (flushes are no-ops)" OFF)
if(PTM_EADR)
  list(APPEND PTM_RUNTIME_COMPILE_OPTIONS -DPTM_EADR=1)
endif()

# The optimizations of the gp_ and ip_ libraries (libs/persistent_options.h),
# each ON by default; turning one OFF builds those libraries without it (an
# ablation: two builds that differ in one option measure that optimization).
# The p_ libraries never use them.
foreach(opt LAST_ALLOC DEFERRED_FLUSH FENCE_PIPELINE COARSE_LOG SEALED_LOG
            LOG_RING LOG_STAGE NO_QUIESCE SKIP_REWRITTEN SOLO PARKED_FREES
            COMMIT_GATHER)
  option(PTM_OPT_${opt} "gp_/ip_ libraries: optimization ${opt}" ON)
  if(PTM_OPT_${opt})
    list(APPEND PTM_OPT_DEFINITIONS PTM_OPT_${opt}=1)
  else()
    list(APPEND PTM_OPT_DEFINITIONS PTM_OPT_${opt}=0)
  endif()
endforeach()
# The libraries that offer buffered durability (PTM_DURABILITY=buffered,
# docs/durability.md): those whose policy sets kDefersDurability. The lazy
# gp_/ip_ libraries with the log ring (libs/redo_core.h,
# libs/p_cgl_lazy_policy.h: kLogRing needs DEFERRED_FLUSH and SEALED_LOG too,
# libs/persistent_options.h) and the eager cgl ones with the sealed log
# (libs/p_cgl_eager_policy.h), and sp3 (its own options, libs/sp3_policy.h).
# The one statement of the rule: `ptm-config
# --buffered` prints it, the tests and scripts/crash_sweep.py read it, and
# test_buffered checks every persistent library against it.
set(PTM_BUFFERED_LIBNAMES)
foreach(lib IN LISTS PTM_LIBNAMES)
  if((lib MATCHES "^(gp|ip)_(cgl|rwl|orec)_lazy$|^(gp|ip)_(orec_mixed|norec|ring)$"
      AND PTM_OPT_LOG_RING AND PTM_OPT_DEFERRED_FLUSH AND PTM_OPT_SEALED_LOG)
     OR (lib MATCHES "^(gp|ip)_cgl_eager$" AND PTM_OPT_SEALED_LOG)
     OR lib STREQUAL "sp3")
    list(APPEND PTM_BUFFERED_LIBNAMES ${lib})
  endif()
endforeach()

# Coarse-grained logging granularity (bytes): the chunk of the ip_ libraries'
# log entries and the alignment of every pool heap's blocks. A directory-wide
# definition: the runtime, ptm-pool and the tests must agree on it.
set(PTM_LOG_GRANULARITY 32 CACHE STRING
    "Coarse-grained logging granularity in bytes (16, 32 or 64)")
set_property(CACHE PTM_LOG_GRANULARITY PROPERTY STRINGS 16 32 64)
if(NOT PTM_LOG_GRANULARITY MATCHES "^(16|32|64)$")
  message(FATAL_ERROR "PTM_LOG_GRANULARITY must be 16, 32 or 64 (bytes), "
                      "not '${PTM_LOG_GRANULARITY}'")
endif()
add_compile_definitions(PTM_LOG_GRANULARITY=${PTM_LOG_GRANULARITY})

foreach(def IN LISTS PTM_OPT_DEFINITIONS)
  list(APPEND PTM_RUNTIME_COMPILE_OPTIONS -D${def})
endforeach()

# ptm_runtime_bitcode(TARGET): TARGET's objects are installed (as bitcode in
# the archives): compile them with the build-time pass plugin that strips the
# source and build trees from each module's source_filename
# (plugin/SourceFileName.cpp); -ffile-prefix-map (PTM_PATH_MAP_FLAGS, in
# PTM_RUNTIME_COMPILE_OPTIONS) does the same for the debug info.
set(ptm_source_file_name_plugin ${CMAKE_BINARY_DIR}/lib/libptm_source_file_name.so)
function(ptm_runtime_bitcode target)
  target_compile_options(${target} PRIVATE
                         -fpass-plugin=${ptm_source_file_name_plugin})
  add_dependencies(${target} ptm_source_file_name)
  get_target_property(sources ${target} SOURCES)
  set_source_files_properties(${sources} TARGET_DIRECTORY ${target}
    PROPERTIES OBJECT_DEPENDS ${ptm_source_file_name_plugin})
endfunction()

# The runtime sources no transaction's fast path runs through: opening and
# checking a pool, recovery, slot leases, the persister thread, log
# extensions, reports and statistics. They are compiled to native code
# (-fno-lto), once, not to bitcode: every LTO link of a program would
# otherwise optimize and generate them again, which was nearly half of each
# link's time, for code that no barrier, begin or commit inlines. The
# archives (lib/libptm_NAME.a) hold both kinds of objects. Global variables
# that fast paths read stay in bitcode sources (persistent_pool.cpp,
# durability.cpp, tx_presence.cpp), so their accesses keep their code.
set(PTM_RUNTIME_NATIVE_SOURCES
  abi/describe.cpp
  base/report.cpp
  base/stats.cpp
  palloc/heap_check.cpp
  persist/domain.cpp
  palloc/lent_runs.cpp
  persist/log_extension.cpp
  pool/heap_init.cpp
  pool/open_checks.cpp
  pool/persister.cpp
  pool/pool_file.cpp
  pool/recovery.cpp
  pool/slot_lease.cpp
)

# ptm_runtime_native(TARGET): TARGET's copies of PTM_RUNTIME_NATIVE_SOURCES
# (relative to runtime/ or absolute) are compiled to native code.
function(ptm_runtime_native target)
  get_target_property(sources ${target} SOURCES)
  foreach(src IN LISTS sources)
    foreach(native IN LISTS PTM_RUNTIME_NATIVE_SOURCES)
      if(src STREQUAL native OR src STREQUAL "${CMAKE_SOURCE_DIR}/runtime/${native}")
        set_property(SOURCE ${src} TARGET_DIRECTORY ${target}
                     APPEND PROPERTY COMPILE_OPTIONS -fno-lto)
      endif()
    endforeach()
  endforeach()
endfunction()

function(ptm_add_runtime_library name)
  add_library(ptm_${name}_obj OBJECT ${ARGN})
  target_compile_definitions(ptm_${name}_obj PRIVATE PTM_LIBNAME="${name}")
  target_compile_options(ptm_${name}_obj PRIVATE ${PTM_RUNTIME_COMPILE_OPTIONS})
  ptm_runtime_bitcode(ptm_${name}_obj)
  target_include_directories(ptm_${name}_obj PRIVATE ${PTM_INCLUDE_DIR}
                                                     ${CMAKE_SOURCE_DIR})

  add_library(ptm_${name} SHARED $<TARGET_OBJECTS:ptm_${name}_obj>
                                 $<TARGET_OBJECTS:ptm_runtime_obj>)
  target_link_options(ptm_${name} PRIVATE -flto -fuse-ld=lld -Wl,-z,defs)
  target_link_libraries(ptm_${name} PRIVATE Threads::Threads ${PTM_RUNTIME_LINK_LIBS})
  target_include_directories(ptm_${name} INTERFACE
    $<BUILD_INTERFACE:${PTM_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  set_target_properties(ptm_${name} PROPERTIES OUTPUT_NAME ptm_${name}
    LINKER_LANGUAGE CXX EXPORT_NAME ${name}_shared)

  add_library(ptm_${name}_bc STATIC $<TARGET_OBJECTS:ptm_${name}_obj>
                                    $<TARGET_OBJECTS:ptm_runtime_obj>)
  target_link_libraries(ptm_${name}_bc INTERFACE Threads::Threads
                                                  ${PTM_RUNTIME_LINK_LIBS} stdc++ m)
  target_include_directories(ptm_${name}_bc INTERFACE
    $<BUILD_INTERFACE:${PTM_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  # An LTO link of the bitcode loads the plugin into the linker, for its
  # barrier budget (plugin/BarrierBudget.h). Paths, not $<TARGET_FILE:...>:
  # an exported link option keeps a target name as it is, and the package's
  # users have no target ptm_plugin.
  target_link_options(ptm_${name}_bc INTERFACE
    "$<BUILD_INTERFACE:-Wl,--load-pass-plugin=${CMAKE_BINARY_DIR}/lib/libptm_plugin.so>"
    "$<INSTALL_INTERFACE:-Wl,--load-pass-plugin=$<INSTALL_PREFIX>/${CMAKE_INSTALL_LIBDIR}/libptm_plugin.so>")
  add_dependencies(ptm_${name}_bc ptm_plugin)
  set_target_properties(ptm_${name}_bc PROPERTIES OUTPUT_NAME ptm_${name}
                                                  EXPORT_NAME ${name})
endfunction()
