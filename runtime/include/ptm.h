/*
 * ptm.h - public API of ptm, automatic persistent-memory transactions.
 *
 * Compile with clang and the plugin (`ptm-config --cflags`), link one runtime
 * library (`ptm-config --ldflags NAME`). Inside PTM_BEGIN()/PTM_END(), every
 * memory access, and every access in a function called from there, becomes a
 * transactional access of the linked library. See docs/API.md for the full
 * semantics and docs/ABI.md for the interface between plugin and runtime.
 */
#ifndef PTM_H
#define PTM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ptm_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Function attributes ------------------------------------------------ */

/* May be called inside transactions: the plugin always makes (and registers)
 * a transactional clone of the function, even if it is not reachable from a
 * transaction in its own unit (`used` keeps an unreferenced static one). */
#define PTM_SAFE __attribute__((annotate("ptm_safe"), used))

/* Called as is (uninstrumented) inside transactions. The function must not
 * touch shared or persistent memory: use it for pure computation, logging to
 * a private buffer, or code that is transactional by other means. */
#define PTM_PURE __attribute__((annotate("ptm_pure")))

/* ---- Transactions ---------------------------------------------------------
 */

/* Run fn(arg) as a transaction. fn is called through its transactional clone
 * (same-unit functions are cloned by the plugin; others are found in the
 * clone table filled at load time). */
void ptm_atomic(void (*fn)(void *), void *arg);

/* Abort the current transaction and execute it again from its start. Calling
 * it outside a transaction is an error (reported, then the process exits). */
void ptm_restart(void) __attribute__((noreturn));

/* Non-zero while the calling thread runs a transaction. */
int ptm_in_transaction(void);

/* ---- Pool and persistent heap ----------------------------------------------
 */

/* Open (or create) the pool file PATH of SIZE bytes (0: use the existing size)
 * and run recovery. Returns 0 or -errno; a bad file is refused with a message
 * on stderr and left unchanged. The pool is this process's until ptm_close
 * (or its exit, even by a crash): an open of a pool in use, here or in
 * another process, returns -EBUSY. A new file gets its space at once
 * (-ENOSPC and no file if the file system lacks it; PTM_POOL_SPARSE=1: a
 * sparse file). Libraries without a pool (the STM family) return -ENOTSUP. */
int ptm_open(const char *path, size_t size);
void ptm_close(void);

/* Thread slots of the open pool: at most this many transactions run at once
 * (any number of threads: they lease the slots, and a thread that finds none
 * free waits for one).
 * Fixed when the pool is created: PTM_POOL_SLOTS for a pool the runtime
 * creates (default 64), ptm-pool create --slots; at most PTM_MAX_POOL_SLOTS.
 * 0 when no pool is open, and with the libraries without a pool (the STM
 * family), which have no such limit. */
unsigned ptm_pool_slots(void);
#define PTM_MAX_POOL_SLOTS 256

/* Durability. With PTM_DURABILITY=strict (the default) a transaction is
 * durable when it returns. With PTM_DURABILITY=buffered[:MS] (the lazy gp_
 * and ip_ libraries) it is atomic and isolated as always and durable within
 * MS milliseconds (default 10): a crash leaves the pool at a prefix of the
 * commit order. ptm_sync makes every transaction committed so far durable;
 * it returns 0 (at once under strict durability, always with the STM
 * family), or -EINVAL when a persistent library is inside a transaction. */
int ptm_sync(void);

/* The pool's root object, SIZE bytes, zeroed when first created. Volatile
 * libraries return a process-lifetime zeroed block. NULL on error. */
void *ptm_root(size_t size);

/* Persistent heap (volatile heap with STM libraries). Transactional when
 * called inside a transaction: an abort frees what the attempt allocated, and
 * a free takes effect at commit. malloc/new inside a transaction allocate
 * from the pool with an ip_ library (IP model) and from the ordinary heap
 * with p_ and gp_ libraries (GP model): use ptm_malloc for persistent data. */
void *ptm_malloc(size_t size);
void *ptm_calloc(size_t nmemb, size_t size);
void *ptm_aligned_alloc(size_t alignment, size_t size);
void ptm_free(void *ptr);

/* The NAME of the linked library, as in Makefile.libnames. */
const char *ptm_algorithm(void);

/* 1 if the linked library keeps a persistent pool crash-consistent (the p_,
 * gp_ and ip_ libraries, crafty): ptm_open maps a file and transactions on
 * it survive a crash. 0 for the volatile ones (cgl, the STMs), whose pool is
 * ordinary memory. */
int ptm_is_persistent(void);

/* The cache-line flush instruction persistence issues: "clwb", or on CPUs
 * without it "clflushopt" or "clflush" (chosen at load time; PTM_FLUSH
 * chooses another the CPU has), "none" in an eADR build. Volatile libraries
 * flush nothing; this names what a persistent one would use. */
const char *ptm_flush_instruction(void);

/* Where the open pool's stores become durable (docs/pool.md "Persistence
 * domains"): "pmem" (persistent memory, a DAX mapping), "eadr" (an eADR
 * build), "file" (an ordinary file: commits are synced to the storage),
 * "page-cache" (no sync: durable against a process crash only; the choice
 * for pools on tmpfs), or "none" when no pool is open. Chosen at ptm_open;
 * PTM_PERSIST_DOMAIN=pmem|eadr|file|page-cache overrides the choice. */
const char *ptm_persist_domain(void);

/* ---- Statistics ------------------------------------------------------------
 */

typedef struct ptm_stats {
  uint64_t commits;     /* committed outermost transactions            */
  uint64_t aborts;      /* aborted attempts (conflicts and restarts)   */
  uint64_t reads;       /* instrumented reads (barrier calls)          */
  uint64_t writes;      /* instrumented writes (barrier calls)         */
  uint64_t clwb;        /* cache-line write-backs issued               */
  uint64_t sfence;      /* store fences issued                         */
  uint64_t log_entries; /* undo/redo log entries appended              */
  uint64_t allocs;      /* transactional allocations                   */
  uint64_t frees;       /* transactional frees                         */
  /* Aborts by cause (their sum plus injected aborts is `aborts`):      */
  uint64_t aborts_read;          /* a read met a conflicting writer/version */
  uint64_t aborts_write;         /* a write (or commit) could not lock      */
  uint64_t aborts_validation;    /* validation failed (commit, upgrade)     */
  uint64_t aborts_restart;       /* ptm_restart                             */
  uint64_t hourglass_waits;      /* begins that waited for a distressed or
                                    irrevocable transaction                 */
  uint64_t hourglass_distressed; /* times this thread took the hourglass */
  uint64_t reuse_waits; /* attempts that aborted to wait until memory freed by
                           other transactions could be reused (an abort
                           cause, counted in `aborts`)                     */

  /* Solo mode of the gp_/ip_ orec_lazy and cgl_lazy libraries (one thread
     alone): */
  uint64_t solo_commits; /* writing commits that ran solo (no orecs; cgl: no
                            locked instruction to take the lock) */

  /* Leased thread slots of a pool (more threads than slots): */
  uint64_t slot_waits;  /* times this thread waited in line for a slot */
  uint64_t slots_given; /* its slot given back at a transaction's end to a
                           thread in line                               */
  uint64_t slots_taken; /* slots it took from a holder between transactions */

  /* The file persistence domain (ptm_persist_domain() == "file"): */
  uint64_t syncs; /* syncs of the pool file this thread issued (each may
                     cover other threads' commits: group commit); in
                     ptm_stats()'s total, every sync of the pool file since
                     it was opened, the persister thread's included      */
} ptm_stats_t;

/* Totals over every thread that has run a transaction (finished threads
 * included). */
void ptm_stats(ptm_stats_t *total);

/* Per-thread figures: fills up to MAX entries, returns the number of threads.
 */
size_t ptm_stats_threads(ptm_stats_t *out, size_t max);

/* Prints per-thread and total figures to OUT (stderr if NULL). PTM_STATS=1 in
 * the environment prints them at exit. */
void ptm_stats_print(FILE *out);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* ---- Region macros ---------------------------------------------------------
 * PTM_BEGIN(); ... PTM_END(); is a statement pair in one function body. The
 * plugin finds the two markers in the IR, places the checkpoint, and
 * instruments everything in between. Regions nest flat: an inner region joins
 * the outer transaction. Leaving a region other than through PTM_END (return,
 * goto, break) is diagnosed by the plugin. Without the plugin, the markers run
 * the region irrevocably (correct under a lock-based library, uninstrumented).
 */
#ifdef __cplusplus

#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

namespace ptm {
namespace detail {
/* Rolls the transaction back when a C++ exception leaves its outermost region;
 * the exception then propagates. Normal exits find the region already closed
 * by PTM_END and do nothing. */
struct region_guard {
  int depth;
  __attribute__((always_inline)) region_guard() : depth(__ptm_region_depth()) {}
  __attribute__((always_inline)) ~region_guard() { __ptm_region_unwind(depth); }
  region_guard(const region_guard &) = delete;
  region_guard &operator=(const region_guard &) = delete;
};
} // namespace detail
} // namespace ptm

#define PTM_BEGIN()                                                            \
  {                                                                            \
    ::ptm::detail::region_guard ptm_region_guard_;                             \
    __ptm_region_begin()
#define PTM_END()                                                              \
  __ptm_region_end();                                                          \
  }                                                                            \
  do {                                                                         \
  } while (0)

namespace ptm {
/* Runs f() as a transaction and returns its result. */
template <class F> auto atomic(F &&f) -> decltype(f()) {
  using R = decltype(f());
  if constexpr (std::is_void_v<R>) {
    PTM_BEGIN();
    f();
    PTM_END();
  } else if constexpr (std::is_trivially_copyable_v<R> &&
                       std::is_default_constructible_v<R>) {
    R result{};
    PTM_BEGIN();
    result = f();
    PTM_END();
    return result;
  } else {
    std::optional<R> result;
    PTM_BEGIN();
    result.emplace(f());
    PTM_END();
    return std::move(*result);
  }
}
} // namespace ptm

#else /* C */

#define PTM_BEGIN()                                                            \
  {                                                                            \
    __ptm_region_begin()
#define PTM_END()                                                              \
  __ptm_region_end();                                                          \
  }                                                                            \
  do {                                                                         \
  } while (0)

#endif

#endif /* PTM_H */
