//===- hot_cold.h - fast paths inline, slow paths cold ----------*- C++ -*-===//
//
// How the runtime's code is split between the program and the library:
//
//   PTM_INLINE   a fast path (barriers, checkpoint, commit, a clone lookup
//                that hits): always inlined into user code under LTO. Keep
//                it small: it is copied into every instrumented access.
//   PTM_OUTLINE  work that is frequent but too large to copy into every
//                access (the first access of a location: a new redo entry,
//                a read lock): out of line, not cold.
//   PTM_SLOW     what runs rarely (start, finish, aborts, misses, a barrier
//                that meets a lock or a newer version): out of line and
//                cold, so that it does not grow the code around the fast
//                paths.
//
// A barrier is a PTM_INLINE fast path that either completes the access or
// hands it whole to its PTM_SLOW (or PTM_OUTLINE) path, which repeats it from
// the start: the fast path leaves no trace before it gives up.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_BASE_HOT_COLD_H
#define PTM_RUNTIME_BASE_HOT_COLD_H

#define PTM_INLINE __attribute__((always_inline)) inline
#define PTM_OUTLINE __attribute__((noinline))
#define PTM_SLOW __attribute__((noinline, cold))

#endif // PTM_RUNTIME_BASE_HOT_COLD_H
