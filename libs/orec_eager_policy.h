//===- orec_eager_policy.h - encounter-time locking, undo log ---*- C++ -*-===//
//
// orec_eager (GCC-TM / TinySTM-ETL): a write locks the orecs of its granules
// at once, logs the old bytes (undo) and writes in place; a read checks the
// orec's version against the snapshot (extending it when possible). Commit:
// a writer takes a commit time, validates its reads if others committed
// meanwhile, and releases its orecs with that time; then waits for the
// attempts running at that moment (quiescence: a doomed attempt's undo must
// not land on memory the writer privatized). Abort: undo, release with a
// fresh time (readers may have seen the in-place values).
//
//   made of: OrecTx (orec_table.h) + UndoLog + GlobalClock + Hourglass +
//            Quiescence; LOGGING (stm_logging.h) says what a write logs and
//            what commit and abort make durable (p_orec_eager: Listing 1's
//            eager sequence, before the orecs are released)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_EAGER_POLICY_H
#define PTM_LIBS_OREC_EAGER_POLICY_H

#include "libs/stm_logging.h"
#include "runtime/base/hot_cold.h"
#include "runtime/stm/orec_table.h"
#include "runtime/stm/quiescence.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct OrecEagerT : Logging<Self> {
  using Log = Logging<Self>;
  using Log::serial;
  using Log::serial_read;
  static constexpr uintptr_t G = Log::kConflictGranule; // one orec's block
  static inline thread_local OrecTx<G> ot;

  static void free_thread() { ot.free_buffers(); }

  static void begin(TxThread &tx) {
    Log::attempt_begin(tx);
    stm_thread.cleanup = free_thread;
    Hourglass::enter(tx, stm_thread, Log::attempt_leave, Log::attempt_reenter);
    Log::eager_begin(tx);
    ot.begin(stm_thread.slot);
  }
  static void begin_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable)
      return Log::begin_irrevocable(tx);
    stm_thread.cleanup = free_thread;
    Hourglass::enter_serial(tx, stm_thread);
    tx.undo.clear();
    ot.begin(stm_thread.slot);
  }
  static bool become_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable)
      return false;
    Hourglass::serialize<Self>(tx, stm_thread,
                               [](TxThread &) { return ot.validate(); });
    return true;
  }

  static bool commit(TxThread &tx) {
    StmThread &st = stm_thread;
    Log::commit_begin(tx);
    if (ot.locks.empty()) {
      tx.undo.clear();
      Hourglass::leave(st);
      Log::attempt_end(tx);
      return true;
    }
    uint64_t time = GlobalClock::tick();
    if (!st.serial && time != ot.start + 1 && !ot.validate())
      return false;
    Log::eager_commit(tx);
    ot.release_all(time);
    bool quiesce = !st.serial;
    Hourglass::leave(st);
    if (Log::kQuiesce && quiesce)
      Quiescence::wait(st);
    Log::attempt_end(tx);
    return true;
  }

  static void rollback(TxThread &tx) {
    Log::eager_rollback(tx);
    if (!ot.locks.empty())
      ot.release_all(GlobalClock::tick());
    Hourglass::leave_after_abort(stm_thread);
    Log::attempt_end(tx);
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    auto *d = static_cast<unsigned char *>(priv);
    for_each_block<G>(reinterpret_cast<uintptr_t>(tm), n,
                      [&](uintptr_t a, size_t k, size_t at) {
                        ot.template read_piece<Self>(tx, d + at, a, k);
                      });
  }

  // Fast path: one granule, its orec readable (or ours: memory holds our
  // writes). Anything else (serial mode, a lock, a newer version, a full
  // read set, an unaligned access) is the slow path's.
  template <class T> PTM_INLINE static T read(TxThread &tx, const T *addr) {
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(!serial() && in_one_granule(a, sizeof(T)) &&
                             ot.template try_read<true>(value, a),
                         1))
      return value;
    return read_slow(tx, addr);
  }
  template <class T> PTM_SLOW static T read_slow(TxThread &tx, const T *addr) {
    if (serial())
      return serial_read(addr);
    T value;
    read_bytes(tx, &value, addr, sizeof(T));
    return value;
  }

  // The orecs of every block of the write's conflict span.
  static void lock_all(TxThread &tx, uintptr_t a, size_t n) {
    AccessSpan sp = Log::conflict_span(a, n);
    for (uintptr_t b = sp.lo & ~(G - 1); b < sp.lo + sp.n; b += G)
      ot.template lock_or_abort<Self>(tx, b);
  }

  // Fast path: one granule (its conflict span is one block: its word, or
  // with coarse-grained logging its chunk) whose orec is ours or free.
  template <class T>
  PTM_INLINE static void write(TxThread &tx, T *addr, T value) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(
            !serial() && in_one_granule(a, sizeof(T)) && ot.try_lock(a), 1))
      return Log::write_in_place(tx, addr, value);
    write_slow(tx, addr, value);
  }
  template <class T>
  PTM_SLOW static void write_slow(TxThread &tx, T *addr, T value) {
    if (serial())
      return Log::serial_write(tx, addr, value);
    lock_all(tx, reinterpret_cast<uintptr_t>(addr), sizeof(T));
    Log::write_in_place(tx, addr, value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (!serial())
      lock_all(tx, reinterpret_cast<uintptr_t>(tm), n);
    Log::write_bytes_in_place(tx, tm, priv, n);
  }
};

struct OrecEagerPolicy : OrecEagerT<OrecEagerPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_OREC_EAGER_POLICY_H
