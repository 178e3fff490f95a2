//===- hot_cold.h - fast paths inline, slow paths cold ----------*- C++ -*-===//
//
// PTM_INLINE marks the glue's fast paths (barriers, checkpoint, commit, a
// clone lookup that hits): always inlined into user code under LTO.
// PTM_SLOW marks what runs rarely (start, finish, aborts, misses): out of
// line and cold, so that it does not grow the code around the fast paths.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_HOT_COLD_H
#define PTM_RUNTIME_ABI_HOT_COLD_H

#define PTM_INLINE __attribute__((always_inline)) inline
#define PTM_SLOW __attribute__((noinline, cold))

#endif // PTM_RUNTIME_ABI_HOT_COLD_H
