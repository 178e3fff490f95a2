//===- redo_core.h - what the redo-log STMs share ---------------*- C++ -*-===//
//
// RedoCore<Self, Logging>: the skeleton of the concurrent STMs that buffer
// their writes in a redo log until commit (orec_lazy, orec_mixed, norec,
// ring): the per-thread redo log; how an attempt begins, begins serially and
// becomes irrevocable (abort and re-execute serially); the commit of an attempt
// that wrote nothing; the end of a commit and of a rollback; and writes. Self
// supplies what differs:
//
//   static void free_thread();          release the thread's buffers
//   static void start(TxThread &);      reset its own per-attempt state
//   static bool still_valid(TxThread &); validation when serializing
//   static void before_write(TxThread &, uintptr_t a, size_t n);
//                                       what a write does besides logging
//                                       (lock, signature; nothing)
//   static bool try_before_write(TxThread &, uintptr_t a, size_t n);
//                                       its inline fast path for an access
//                                       within one granule; false: leave it
//                                       to before_write (what it did, a lock
//                                       taken or a signature bit, is one
//                                       that before_write finds done)
//
// and, for the reads below (the algorithms whose reads see memory as one
// consistent snapshot: norec, ring; the orec algorithms read granule by
// granule and define their own):
//
//   static void read_memory(TxThread &, void *dst, uintptr_t a, size_t n);
//   template <class T> static bool try_read_memory(TxThread &, T &dst,
//                                       uintptr_t a);  its inline fast path
//                                       for a T within one granule; false:
//                                       leave it to read_memory (nothing
//                                       recorded but a read signature bit)
//   static bool may_have_written(uintptr_t a, size_t n);  false: A is in no
//                                       redo entry (a signature says so)
//
// Reads and writes are an inline fast path (one granule, not serial, the
// redo log not searched unless its summary says the granule may be there,
// an existing redo entry updated in place) and an out-of-line path for the
// rest (hot_cold.h). The attempt's private stack (stm_access.h) is written
// in place and never logged, so its reads find no entry.
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_REDO_CORE_H
#define PTM_LIBS_REDO_CORE_H

#include "libs/stm_logging.h"
#include "runtime/base/hot_cold.h"
#include "runtime/stm/quiescence.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct RedoCore : Logging<Self> {
  using Log = Logging<Self>;
  // Buffered durability (runtime/pool/durability.h): a redo-only algorithm
  // over the log ring can leave durability to the persister.
  static constexpr bool kDefersDurability = Log::kLogRing;
  static constexpr bool kLogsBlocks = Log::kLogRing;
  using Log::serial;
  using Log::serial_read;
  static inline thread_local typename Log::Redo redo;

  static void start_attempt(TxThread &tx) {
    tx.undo.clear();
    redo.clear();
    Self::start(tx);
  }
  static void begin(TxThread &tx) {
    Log::attempt_begin(tx);
    stm_thread.cleanup = Self::free_thread;
    if (!Self::enter_solo(stm_thread)) {
      Hourglass::enter(tx, stm_thread, Log::attempt_leave,
                       Log::attempt_reenter);
      Self::admit(stm_thread);
    }
    start_attempt(tx);
  }
  // Solo mode (orec_lazy): the begin of a thread that runs alone, in place
  // of the hourglass's (false: none); and what follows the hourglass's.
  static bool enter_solo(StmThread &) { return false; }
  static void admit(StmThread &) {}
  static void begin_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable) {
      Log::begin_irrevocable(tx);
    } else {
      stm_thread.cleanup = Self::free_thread;
      Hourglass::enter_serial(tx, stm_thread);
      start_attempt(tx);
    }
  }
  // Buffered writes cannot be published in the middle of an attempt: some
  // are to stack frames that are live, others to frames that died (a callee
  // that returned, perhaps now under the runtime's own frames), and which is
  // which is not known here. So a non-serial attempt aborts and re-executes
  // serially from its checkpoint (Hourglass: want_serial), where writes go
  // in place and the switch has nothing to publish: nothing buffered is
  // lost or exposed. Without a checkpoint to return to it cannot switch.
  static bool become_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable) {
      return false;
    } else {
      if (stm_thread.serial)
        return true;
      if (!tx.has_checkpoint)
        return false;
      stm_thread.want_serial = true;
      tx_conflict<Self>(tx, AbortCause::Serialize);
    }
  }

  // An attempt that logged, allocated and freed nothing: commit_begin has
  // nothing to do for it and commit_read_only commits it. A policy whose
  // commit takes that branch first sets kReadOnlyFastCommit (policy_base.h)
  // and the glue asks this inline.
  static PTM_INLINE bool read_only(const TxThread &tx) {
    return allocated_nothing(tx) && redo.empty();
  }
  // The commit of an attempt with nothing to write back.
  static bool commit_read_only(TxThread &tx) {
    tx.undo.clear();
    Hourglass::leave(stm_thread);
    Log::attempt_end(tx);
    return true;
  }

  // The end of a writer's commit once its redo log is written back and its
  // locks released: quiesce if the logging asks for it and QUIESCE holds
  // (privatization safety for the orec algorithms; norec and ring pass
  // false).
  static bool end_commit(TxThread &tx, bool quiesce) {
    StmThread &st = stm_thread;
    Log::redo_released(tx);
    Hourglass::leave(st);
    if constexpr (Log::kQuiesce)
      if (quiesce)
        Quiescence::wait(st);
    Log::attempt_end(tx);
    return true;
  }

  // The end of every rollback, once Self has undone and released its own.
  static void end_rollback(TxThread &tx) {
    Log::redo_discard(tx, redo);
    Hourglass::leave_after_abort(stm_thread);
    Log::attempt_end(tx);
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    auto a = reinterpret_cast<uintptr_t>(tm);
    Self::read_memory(tx, priv, a, n);
    if (!redo.empty())
      redo.overlay(priv, a, n);
  }
  // The fill of a new chunk entry (coarse-grained logging, the log's put):
  // the N bytes of the chunk at A, which the log has no entry for.
  static void fill_chunk(void *priv, uintptr_t a, size_t n) {
    Self::read_bytes(this_thread(), priv, reinterpret_cast<const void *>(a), n);
  }

  template <class T> PTM_INLINE static T read(TxThread &tx, const T *addr) {
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(!serial() && in_one_granule(a, sizeof(T)) &&
                             !redo.may_contain(granule_of(a)) &&
                             Self::try_read_memory(tx, value, a),
                         1))
      return value;
    return read_slow(tx, addr);
  }
  template <class T> PTM_SLOW static T read_slow(TxThread &tx, const T *addr) {
    if (serial())
      return serial_read(addr);
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (!redo.empty() && Self::may_have_written(a, sizeof(T))) {
      // Read-after-write: the log alone when it has every byte.
      if (in_one_granule(a, sizeof(T)) ? redo.try_get(a, value)
                                       : redo.overlay(&value, a, sizeof(T)))
        return value;
      Self::read_memory(tx, &value, a, sizeof(T));
      redo.overlay(&value, a, sizeof(T));
      return value;
    }
    Self::read_memory(tx, &value, a, sizeof(T));
    return value;
  }

  // The slow path is not rare: the first write of each granule (or chunk)
  // makes a redo entry there.
  template <class T>
  PTM_INLINE static void write(TxThread &tx, T *addr, T value) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(!serial() && in_one_granule(a, sizeof(T)) &&
                             Self::try_before_write(tx, a, sizeof(T)) &&
                             redo.try_put(a, value, PrivateStack::of(tx)),
                         1))
      return;
    write_slow(tx, addr, value);
  }
  template <class T>
  PTM_OUTLINE static void write_slow(TxThread &tx, T *addr, T value) {
    if constexpr (Self::kLastAllocTracking && Self::kLastAllocLate)
      if (in_tx_alloc(tx, addr, sizeof value))
        return (void)memcpy(addr, &value, sizeof value);
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (PrivateStack::of(tx).holds(a, sizeof value))
      return (void)memcpy(addr, &value, sizeof value);
    if (serial())
      return Log::serial_write(tx, addr, value);
    Self::before_write(tx, a, sizeof value);
    redo.put_value(a, value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    auto a = reinterpret_cast<uintptr_t>(tm);
    if (PrivateStack::of(tx).holds(a, n))
      return (void)memcpy(tm, priv, n);
    if (serial())
      return Log::serial_write_bytes(tx, tm, priv, n);
    Self::before_write(tx, a, n);
    redo.put(a, priv, n);
  }
};

} // namespace ptm

#endif // PTM_LIBS_REDO_CORE_H
