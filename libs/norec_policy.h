//===- norec_policy.h - one sequence lock, value validation -----*- C++ -*-===//
//
// NOrec (Dalessandro, Spear, Scott): no per-location metadata. A global
// sequence lock orders writer commits (odd while one writes back). Reads log
// (address, bytes seen); whenever the sequence lock has moved since the
// snapshot, the transaction re-validates by comparing the logged values with
// memory and moves its snapshot. Writes go to a redo log. A writer commits by
// taking the lock at its snapshot value (re-validating until it succeeds),
// writes back and releases. Privatization-safe without quiescence: write-back
// happens under the lock, and every read re-validates after a commit.
//
//   made of: ValueLog (read_set.h) + RedoLog + a sequence lock + Hourglass;
//            LOGGING (stm_logging.h) holds the write set and writes it back
//            (p_norec: in the pool slot, Listing 1's lazy commit under the
//            sequence lock, whose odd value is the commit order)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_NOREC_POLICY_H
#define PTM_LIBS_NOREC_POLICY_H

#include "libs/redo_core.h"
#include "libs/stm_logging.h"
#include "runtime/base/hot_cold.h"
#include "runtime/persist/slot_log_index.h"
#include "runtime/pool/pool_format.h"
#include "runtime/stm/read_set.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct NorecT : RedoCore<Self, Logging> {
  using Core = RedoCore<Self, Logging>;
  using Log = typename Core::Log;
  using Core::redo;
  alignas(64) static inline std::atomic<uint64_t> seq{0};
  static inline thread_local uint64_t snapshot;
  static inline thread_local ValueLog values;
  static constexpr uint64_t kInvalid = ~uint64_t{0};

  static void free_thread() {
    values.release();
    redo.release();
  }

  static uint64_t even_seq() {
    for (unsigned spins = 0;;) {
      uint64_t s = seq.load(std::memory_order_acquire);
      if (!(s & 1))
        return s;
      spin_pause(spins);
    }
  }

  // A consistent snapshot time at which every logged value still holds, or
  // kInvalid.
  static __attribute__((noinline)) uint64_t validate(TxThread &tx) {
    PrivateStack stack = PrivateStack::of(tx);
    for (;;) {
      uint64_t s = even_seq();
      bool ok = values.matches_memory(stack);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (seq.load(std::memory_order_relaxed) != s)
        continue;
      return ok ? s : kInvalid;
    }
  }

  static void start(TxThread &) {
    values.clear();
    snapshot = even_seq();
  }
  static bool still_valid(TxThread &tx) { return validate(tx) != kInvalid; }
  PTM_INLINE static void before_write(TxThread &, uintptr_t, size_t) {}
  PTM_INLINE static bool try_before_write(TxThread &, uintptr_t, size_t) {
    return true;
  }
  __attribute__((always_inline)) static bool may_have_written(uintptr_t,
                                                              size_t) {
    return true;
  }

  // (the read-only attempt: RedoCore::read_only, the glue's fast commit)
  static constexpr bool kReadOnlyFastCommit = true;
  static bool commit(TxThread &tx) {
    Log::commit_begin(tx);
    if (redo.empty())
      return Core::commit_read_only(tx);
    Log::redo_announce(tx);
    uint64_t s = snapshot;
    while (!seq.compare_exchange_strong(s, snapshot + 1)) {
      s = validate(tx);
      if (s == kInvalid)
        return false;
      snapshot = s;
    }
    // Writers commit one at a time, in sequence-lock order.
    Log::redo_commit(tx, redo, snapshot + 1);
    seq.store(snapshot + 2, std::memory_order_release);
    return Core::end_commit(tx, false);
  }

  static void rollback(TxThread &tx) {
    Log::undo_writes(tx);
    Core::end_rollback(tx);
  }

  // Reads N bytes at A from memory, consistent with the snapshot, and logs
  // their values. Coarse-grained logging (ip_norec, paper IV-B): reads in the
  // chunk space read and log whole chunks (the value log coarsens with the
  // redo log: G bytes logged per read, the cost the paper reports).
  static __attribute__((always_inline)) void
  read_memory(TxThread &tx, void *dst, uintptr_t a, size_t n) {
    if constexpr (Log::kCoarseLog) {
      AccessSpan sp = Log::conflict_span(a, n);
      if (__builtin_expect(sp.n != n, 1))
        return read_chunks(tx, dst, a, n);
    }
    read_exact(tx, dst, a, n);
  }
  // The inline fast path of read_memory for a T at A within one granule:
  // nothing committed since the snapshot and room in the value log.
  // Coarse-grained logging: a read in the chunk space reads and logs its
  // whole chunk, out of line (G bytes of value log per read, the cost the
  // paper reports).
  template <class T>
  PTM_INLINE static bool try_read_memory(TxThread &tx, T &dst, uintptr_t a) {
    if constexpr (Log::kCoarseLog) {
      constexpr uintptr_t g = pool::kLogGranularity;
      if (__builtin_expect(in_chunk_space(a & ~(g - 1), g), 1)) {
        read_chunks(tx, &dst, a, sizeof(T));
        return true;
      }
    }
    racy_copy(&dst, reinterpret_cast<const void *>(a), sizeof(T));
    std::atomic_thread_fence(std::memory_order_acquire);
    return __builtin_expect(seq.load(std::memory_order_relaxed) == snapshot,
                            1) &&
           values.try_add(a, dst);
  }
  static PTM_OUTLINE void read_chunks(TxThread &tx, void *dst, uintptr_t a,
                                      size_t n) {
    constexpr uintptr_t g = pool::kLogGranularity;
    auto *out = static_cast<unsigned char *>(dst);
    for (uintptr_t p = a; p < a + n;) {
      uintptr_t c = p & ~(g - 1);
      uintptr_t end = c + g < a + n ? c + g : a + n;
      AccessSpan sp = Log::conflict_span(c, g);
      if (sp.lo == c && sp.n == g && in_chunk_space(c, g)) {
        alignas(8) unsigned char chunk[g];
        read_exact(tx, chunk, c, g);
        memcpy(out + (p - a), chunk + (p - c), end - p);
      } else {
        read_exact(tx, out + (p - a), p, end - p);
      }
      p = end;
    }
  }
  static __attribute__((always_inline)) void read_exact(TxThread &tx, void *dst,
                                                        uintptr_t a, size_t n) {
    racy_copy(dst, reinterpret_cast<const void *>(a), n);
    std::atomic_thread_fence(std::memory_order_acquire);
    while (
        __builtin_expect(seq.load(std::memory_order_relaxed) != snapshot, 0)) {
      uint64_t s = validate(tx);
      if (s == kInvalid)
        tx_conflict<Self>(tx, AbortCause::ReadConflict);
      snapshot = s;
      racy_copy(dst, reinterpret_cast<const void *>(a), n);
      std::atomic_thread_fence(std::memory_order_acquire);
    }
    values.add(a, dst, n);
  }
};

struct NorecPolicy : NorecT<NorecPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_NOREC_POLICY_H
