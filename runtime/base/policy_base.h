//===- policy_base.h - defaults every algorithm policy inherits -*- C++ -*-===//
//
// An algorithm is a policy class of static functions; PTM_DEFINE_RUNTIME
// (abi_glue.h) turns it into the whole ABI. A policy provides:
//
//   using Pool;     the pool API (VolatilePool, or a persistent pool later);
//                   Pool::Heap is where ptm_malloc allocates
//   using TxHeap;   where malloc/new inside a transaction allocate
//   static void begin(TxThread &);            start an outermost attempt
//   static void begin_irrevocable(TxThread &); start one that cannot abort
//   static bool commit(TxThread &);           make the attempt's writes final;
//                                             false: validation failed, the
//                                             glue calls rollback and retries
//   static void rollback(TxThread &);         undo the attempt's writes and
//                                             release what begin acquired
//   static bool become_irrevocable(TxThread &); false: cannot (then running
//                                             uninstrumented code is an error);
//                                             a policy that buffers writes may
//                                             instead abort (AbortCause::
//                                             Serialize) and re-execute the
//                                             attempt serially
//   template <class T> static T read(TxThread &, const T *);
//   template <class T> static void write(TxThread &, T *, T);
//   static void read_bytes(TxThread &, void *priv, const void *tm, size_t);
//   static void write_bytes(TxThread &, void *tm, const void *priv, size_t);
//
// and may override the defaults below:
//
//   kReadsInPlace    reads are plain loads (memory always holds the
//                    transaction's view): libc reads and memcpy sources can
//                    be read directly
//   kCountAccesses   count reads/writes in ptm_stats (one add per barrier)
//   kLastAllocTracking  accesses that fall inside a block the attempt
//                    allocated (tx.last_alloc, tx.captured:
//                    captured_blocks.h) are plain loads and stores: the
//                    policy must make the blocks durable at commit (paper
//                    IV-A, generalised to every allocation; the gp_/ip_
//                    libraries)
//   kFreesOwnBlocksAtOnce  a free of a block the attempt allocated itself
//                    (one of its 16 newest) is done at once, not at commit
//                    (tx_alloc.h); the policy is told of the block first
//                    (forget_block(tx, lo, hi)) and must then never write
//                    into it for the attempt: no write-back, no rollback
//                    (cgl: its undo entries there are dropped at rollback)
//   on_event         hook told about every ABI call (events.h)
//   inject_abort     asked at every barrier: true aborts the attempt there
//
// Aborting from inside the policy (concurrent algorithms): a barrier, begin or
// commit that detects a conflict calls
//
//   tx_conflict<P>(tx, AbortCause::ReadConflict);    // [[noreturn]]
//
// which the glue (abi_glue.h) implements as the abort path: P::rollback, the
// attempt's allocations are undone, aborts and the cause's
// counter are incremented, and it longjmps to the checkpoint (the plugin
// re-executes, calling __ptm_tx_begin again). It must not be called in an
// irrevocable transaction. A commit whose validation fails may instead return
// false (counted as AbortCause::Validation); both are legal from commit.
// Policies that must know that a rollback ends the transaction for good (an
// exception left it) watch for Event::UnwindRollback in on_event, which the
// glue reports just before calling rollback.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POLICY_BASE_H
#define PTM_RUNTIME_POLICY_BASE_H

#include "runtime/base/events.h"
#include "runtime/base/tx_thread.h"
#include "runtime/base/volatile_heap.h"
#include "runtime/base/volatile_pool.h"

#include <cstdint>

#ifndef PTM_COUNT_ACCESSES
#define PTM_COUNT_ACCESSES 0
#endif

namespace ptm {

// Why an attempt aborted (ptm_stats_t: aborts_read, aborts_write,
// aborts_validation, aborts_restart, reuse_waits).
enum class AbortCause : unsigned {
  ReadConflict,  // a read met a locked or newer location
  WriteConflict, // a write (or commit-time locking) could not get its lock
  Validation,    // the read set was no longer valid
  Restart,       // ptm_restart
  ReuseWait,     // an allocation found only memory held back for reuse
                 // (reuse_epoch.h): wait outside the attempt, run again
  Serialize,     // the attempt must become irrevocable: it re-executes
                 // serially from its checkpoint (redo_core.h)
};

// The glue's abort path for policies (defined in abi_glue.h).
template <class P> [[noreturn]] void tx_conflict(TxThread &tx, AbortCause why);

struct PolicyBase {
  using Pool = VolatilePool;
  using TxHeap = VolatileHeap;

  static constexpr bool kReadsInPlace = false;
  static constexpr bool kCountAccesses = PTM_COUNT_ACCESSES;
  static constexpr bool kLastAllocTracking = false;
  // With last-allocation tracking: P::read and P::write test in_tx_alloc
  // (tx_thread.h) on their slow paths, their fast paths doing right by the
  // blocks anyway (it is never logged: a fast read returns memory's bytes, a
  // fast write finds no log entry and takes the slow path), so the glue need
  // not test it first on every access.
  static constexpr bool kLastAllocLate = false;
  static constexpr bool kFreesOwnBlocksAtOnce = false;
  // The policy has read_only(tx), true if the attempt wrote, allocated and
  // freed nothing (a few loads: the glue asks it inline at every outermost
  // commit), and commit_read_only(tx), which commits such an attempt: the
  // glue then commits it in a small function of its own
  // (TxBoundary::finish_read_only), which saves no registers for the
  // writing commit's work.
  static constexpr bool kReadOnlyFastCommit = false;

  __attribute__((always_inline)) static void on_event(TxThread &, Event,
                                                      uintptr_t) {}
  __attribute__((always_inline)) static bool inject_abort(TxThread &) {
    return false;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_POLICY_BASE_H
