//===- tx_boundary.h - begin, commit and the abort path ---------*- C++ -*-===//
//
// TxBoundary<P>: __ptm_tx_checkpoint, __ptm_tx_begin and __ptm_tx_commit on
// top of policy P, the rollback of an attempt and the abort path that every
// abort takes (ptm_restart, a policy's tx_conflict, an injected abort):
//   P::rollback (undo memory, release) -> free the attempt's allocations and
//   drop its deferred frees -> aborts++ -> depth = 0 -> resume the
//   checkpoint (checkpoint_jump.h) with 1;
// the instrumented code then calls __ptm_tx_begin again. A commit that fails
// validation does the same rollback but returns 1 from __ptm_tx_commit
// instead of resuming the checkpoint (the plugin's retry edge).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_TX_BOUNDARY_H
#define PTM_RUNTIME_ABI_TX_BOUNDARY_H

#include "runtime/abi/checkpoint_jump.h"
#include "runtime/abi/tx_alloc.h"
#include "runtime/base/events.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/policy_base.h"
#include "runtime/base/report.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"

#include <cstddef>
#include <cstdint>
#include <cxxabi.h>

namespace ptm {

template <class P> struct TxBoundary {
  static PTM_INLINE void *checkpoint() {
    TxThread &tx = this_thread();
    return tx.depth == 0 ? static_cast<void *>(tx.checkpoint)
                         : static_cast<void *>(tx.scratch);
  }

  // STACK_MARK: the caller's stack pointer; deeper frames are dead after an
  // abort and the undo log does not restore into them.
  static void begin(const char *where, const void *stack_mark) {
    TxThread &tx = this_thread();
    if (tx.depth++ > 0) {
      P::on_event(tx, Event::NestedBegin, 0);
      return;
    }
    start(tx, where, stack_mark, /*irrevocable=*/false);
  }

  static PTM_SLOW void start(TxThread &tx, const char *where,
                             const void *stack_mark, bool irrevocable) {
    if (!tx.attached)
      attach_thread(tx);
    tx.where = where;
    tx.stack_mark = stack_mark;
    // The attempt's private stack: the thread's stack below the mark. A
    // transaction begun on another stack (a coroutine's, a signal handler's
    // alternate stack) has none: its frames are treated as shared memory.
    tx.stack_lo =
        stack_mark > tx.thread_stack_lo && stack_mark <= tx.thread_stack_hi
            ? tx.thread_stack_lo
            : stack_mark;
    tx.has_checkpoint = !irrevocable;
    tx.irrevocable = irrevocable;
    tx.irrevocable_why = irrevocable ? where : nullptr;
    ++tx.attempt;
    ++tx.attempts_started;
    tx.kept.clear();
    tx.last_alloc_size = 0;
    tx.captured.clear();
    P::on_event(tx, Event::Begin, 0);
    if (irrevocable)
      P::begin_irrevocable(tx);
    else
      P::begin(tx);
  }

  // 0: committed (or, nested, left); 1: the attempt was rolled back at commit
  // time and must re-execute (the caller branches back to its checkpoint).
  static PTM_INLINE int commit() {
    TxThread &tx = this_thread();
    if (__builtin_expect(tx.depth <= 0, 0))
      fatal("transaction commit outside a transaction (unbalanced "
            "PTM_BEGIN/PTM_END?)");
    if (--tx.depth > 0)
      return 0;
    if constexpr (P::kReadOnlyFastCommit)
      if (P::read_only(tx))
        return finish_read_only(tx);
    return finish(tx);
  }

  // An attempt that wrote, allocated and freed nothing (P::read_only; for a
  // policy with kReadOnlyFastCommit): a small function of its own, which
  // saves no registers for the writing commit's work.
  static PTM_OUTLINE int finish_read_only(TxThread &tx) {
    P::commit_read_only(tx);
    forget_allocations(tx); // (nothing freed: no loop over the frees)
    reset_attempt(tx);
    return 0;
  }

  static PTM_SLOW int finish(TxThread &tx) {
    if (!P::commit(tx)) {
      // Validation failed: the policy left the attempt as it was running.
      if (tx.irrevocable)
        fatal("library '%s' failed to commit an irrevocable transaction",
              PTM_LIBNAME);
      P::on_event(tx, Event::Abort, 0);
      rollback_attempt(tx);
      count_abort(tx, AbortCause::Validation);
      return 1;
    }
    committed(tx);
    return 0;
  }

  // The attempt committed: its frees take effect, the descriptor's
  // per-attempt state is reset.
  static PTM_INLINE void committed(TxThread &tx) {
    commit_allocations<P>(tx);
    reset_attempt(tx);
  }
  static PTM_INLINE void reset_attempt(TxThread &tx) {
    tx.kept.clear();
    tx.attempt = 0;
    tx.irrevocable = false;
    stat_add(tx.stats->commits);
    P::on_event(tx, Event::Commit, 0);
  }

  // Undoes everything the attempt did; the thread is then outside any
  // transaction (depth 0).
  // The object of a C++ exception thrown inside a transaction: written in
  // place and kept by a rollback, so that the exception leaving the
  // transaction carries what was thrown.
  static void *allocate_exception(size_t n) noexcept {
    void *p = __cxxabiv1::__cxa_allocate_exception(n);
    TxThread &tx = this_thread();
    if (tx.depth > 0) {
      auto lo = reinterpret_cast<uintptr_t>(p);
      tx.kept.push_back(MemRange{lo, lo + n});
    }
    return p;
  }

  static void rollback_attempt(TxThread &tx) {
    // Inside the attempt while it is undone, also when commit failed or
    // aborted (commit runs at depth 0): the heap must see that releasing
    // the attempt's allocations undoes them, and not free them for real in
    // a transaction of their own (PoolHeap::release).
    tx.depth = 1;
    P::rollback(tx);
    rollback_allocations<P>(tx);
    tx.kept.clear();
    stat_add(tx.stats->aborts);
    tx.depth = 0;
  }

  [[noreturn]] static PTM_SLOW void abort(TxThread &tx) {
    if (tx.irrevocable)
      fatal("transaction begun at %s cannot abort: it became irrevocable at "
            "%s",
            tx.where ? tx.where : "?",
            tx.irrevocable_why ? tx.irrevocable_why : "?");
    if (!tx.has_checkpoint)
      fatal("transaction begun at %s cannot abort: it has no checkpoint",
            tx.where ? tx.where : "?");
    P::on_event(tx, Event::Abort, 0);
    rollback_attempt(tx);
    checkpoint_resume(tx.checkpoint, 1);
  }

  [[noreturn]] static PTM_SLOW void restart() {
    TxThread &tx = this_thread();
    if (tx.depth <= 0)
      fatal("ptm_restart called outside a transaction");
    if (tx.irrevocable)
      fatal("ptm_restart in the transaction begun at %s, which cannot be "
            "re-executed: it is irrevocable since %s",
            tx.where ? tx.where : "?",
            tx.irrevocable_why ? tx.irrevocable_why : "?");
    P::on_event(tx, Event::Restart, 0);
    count_abort(tx, AbortCause::Restart);
    abort(tx);
  }

  // A policy found a conflict (policy_base.h: tx_conflict).
  [[noreturn]] static PTM_SLOW void conflict(TxThread &tx, AbortCause why) {
    count_abort(tx, why);
    abort(tx);
  }

  static void count_abort(TxThread &tx, AbortCause why) {
    switch (why) {
    case AbortCause::ReadConflict:
      stat_add(tx.stats->aborts_read);
      break;
    case AbortCause::WriteConflict:
      stat_add(tx.stats->aborts_write);
      break;
    case AbortCause::Validation:
      stat_add(tx.stats->aborts_validation);
      break;
    case AbortCause::Restart:
      stat_add(tx.stats->aborts_restart);
      break;
    case AbortCause::ReuseWait:
      stat_add(tx.stats->reuse_waits);
      break;
    case AbortCause::Serialize: // counted in aborts only
      break;
    }
  }

  [[noreturn]] static PTM_SLOW void injected_abort(TxThread &tx) {
    P::on_event(tx, Event::InjectedAbort, 0);
    abort(tx);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_ABI_TX_BOUNDARY_H
