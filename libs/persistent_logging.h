//===- persistent_logging.h - Listing 1 logging points ----------*- C++ -*-===//
//
// The persistent transformation of Listing 1 (paper, Section III-A) as
// pieces shared by every p_ library:
//
//   PersistentEager   undo log in the thread's pool slot (begin: status
//                     active; each write: log entry clwb, sfence, store,
//                     data clwb; commit: sfence, status idle; rollback:
//                     restore, clwb the restored words, sfence, status idle)
//                     -> 2W+2 clwb, W+3 sfence per transaction
//   SlotRedoLog       the lazy write set kept in the slot's entries (a
//                     volatile index finds them for read-after-write), with
//                     RedoLog's interface
//   PersistentLazy    commit of the slot redo log: flush the log, sfence,
//                     status committed with the commit order, sfence, write
//                     back + clwb, sfence, status idle, sfence
//                     -> 2W+2 clwb, 4 sfence
//   PersistentLogging<Self>  the logging points of stm_logging.h made of
//                     these, for the concurrent STM templates
//
// p_cgl_eager and p_cgl_lazy use PersistentEager / PersistentLazy directly.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_PERSISTENT_LOGGING_H
#define PTM_LIBS_PERSISTENT_LOGGING_H

#include "libs/persistent_policy_base.h"
#include "runtime/persistent_redo_log.h"
#include "runtime/persistent_undo_log.h"
#include "runtime/stm_access.h"
#include "runtime/stm_policy.h"

#include <cstring>

namespace ptm {

struct PersistentEager {
  // Listing 1 Begin.Eager: status active, clwb, sfence.
  static void begin(TxThread &tx) {
    tx.undo.clear();
    PersistentUndoLog::begin(pool::tls_slot);
  }

  // Listing 1 Write.Eager (the location is ours): log the old value and
  // flush the entry, sfence, store, flush the data. The volatile undo log
  // (tx.undo) is what an abort restores from.
  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    PersistentUndoLog::log_old(pool::tls_slot, addr, sizeof(T));
    persist::sfence();
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
    persist::flush_range(addr, sizeof(T));
  }
  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (n == 0)
      return;
    PersistentUndoLog::log_old(pool::tls_slot, tm, n);
    persist::sfence();
    tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
    persist::flush_range(tm, n);
  }

  // Listing 1 Commit.Eager: sfence, status idle, clwb, sfence (nothing when
  // the attempt wrote nothing).
  static void commit(TxThread &tx) {
    PersistentUndoLog::commit(pool::tls_slot);
    tx.undo.clear();
  }

  // Abort: restore memory (skipping dead stack frames and exception objects),
  // write the restored words back, sfence, status idle, clwb, sfence.
  static void rollback(TxThread &tx) {
    tx.undo.rollback(stack_position(), tx.stack_mark, &tx.kept);
    PersistentUndoLog::rollback(pool::tls_slot);
  }
};

// The redo log of a lazy p_ library: its entries are the slot's log entries.
struct SlotRedoLog {
  bool empty() const { return pool::tls_slot.count == 0; }
  size_t size() const { return pool::tls_slot.count; }
  uintptr_t granule(size_t i) const { return pool::tls_slot.entries[i].addr; }

  // A new, empty log (a new generation of the slot).
  void clear() { PersistentRedoLog::begin(pool::tls_slot); }
  void release() {}

  __attribute__((always_inline)) bool may_contain(uintptr_t granule) const {
    return PersistentRedoLog::may_contain(pool::tls_slot, granule, 8);
  }
  void put(uintptr_t addr, const void *src, size_t n) {
    PersistentRedoLog::write(pool::tls_slot, reinterpret_cast<void *>(addr),
                             src, n);
  }
  bool overlay(void *dst, uintptr_t addr, size_t n) const {
    if (empty())
      return false;
    return PersistentRedoLog::overlay(pool::tls_slot, dst,
                                      reinterpret_cast<const void *>(addr), n);
  }
};

struct PersistentLazy {
  // Listing 1 Commit.Lazy, after the algorithm's locking and validation; the
  // attempt's private stack frames are not written back.
  static void commit(TxThread &tx, uint64_t order) {
    PrivateStack stack = PrivateStack::of(tx);
    PersistentRedoLog::commit(pool::tls_slot, order, stack.lo, stack.hi);
  }
  static void discard() { PersistentRedoLog::discard(pool::tls_slot); }
};

template <class Self>
struct PersistentLogging : PersistentPolicyBase<Self, StmPolicyBase> {
  using Base = PersistentPolicyBase<Self, StmPolicyBase>;
  static constexpr bool kIrrevocable = false;
  using Redo = SlotRedoLog;

  // The slot is claimed (and the default pool opened) before anything else.
  static __attribute__((always_inline)) void attempt_begin(TxThread &) {
    pool::enter_tx();
  }
  static __attribute__((always_inline)) void attempt_end(TxThread &) {
    pool::leave_tx(pool::tls_slot);
  }
  // Deferred frees through the attempt's own barriers; allocated blocks
  // written back before the commit's fences.
  static void commit_begin(TxThread &tx) {
    Base::apply_frees(tx);
    Base::flush_allocs(tx);
  }

  static void eager_begin(TxThread &tx) { PersistentEager::begin(tx); }
  template <class T>
  __attribute__((always_inline)) static void write_in_place(TxThread &tx,
                                                            T *addr, T value) {
    PersistentEager::write(tx, addr, value);
  }
  static void write_bytes_in_place(TxThread &tx, void *tm, const void *priv,
                                   size_t n) {
    PersistentEager::write_bytes(tx, tm, priv, n);
  }
  static void eager_commit(TxThread &tx) { PersistentEager::commit(tx); }
  static void eager_rollback(TxThread &tx) { PersistentEager::rollback(tx); }

  static void redo_commit(TxThread &tx, SlotRedoLog &redo, uint64_t order) {
    PersistentLazy::commit(tx, order);
    redo.clear();
  }
  static void redo_discard(TxThread &, SlotRedoLog &redo) {
    PersistentLazy::discard();
    redo.clear();
  }
};

} // namespace ptm

#endif // PTM_LIBS_PERSISTENT_LOGGING_H
