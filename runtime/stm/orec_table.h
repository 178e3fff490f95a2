//===- orec_table.h - ownership records (versioned locks) -------*- C++ -*-===//
//
// A table of 2^20 orecs; the 8-byte granule at address A is covered by orec
// (A >> 3) mod 2^20 (a barrier of N bytes may cover two or more). An orec is
// one word: unlocked, `version << 1` (the global-clock time of the last
// commit that wrote under it); locked, `(slot + 1) << 1 | 1`, the owner's
// lock word (tx_slots.h).
//
// OrecTx is the per-thread part shared by orec_eager, orec_lazy and
// orec_mixed: the snapshot time, the read set (orecs read) and the lock set
// (orecs held, with the version each had), and the three operations written
// once for all of them:
//   read_piece  consistent read of bytes within one granule (TL2 pre/post
//               version check; a newer version extends the snapshot)
//   lock        acquire an orec (bounded spin, then abort)
//   validate    every orec read still unlocked-or-ours at version <= start
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_OREC_TABLE_H
#define PTM_RUNTIME_OREC_TABLE_H

#include "runtime/base/grow_buffer.h"
#include "runtime/base/policy_base.h"
#include "runtime/stm/global_clock.h"
#include "runtime/stm/stm_access.h"
#include "runtime/stm/tx_slots.h"

#include <atomic>
#include <cstdint>

namespace ptm {

using Orec = std::atomic<uint64_t>;

struct OrecTable {
  static constexpr unsigned kBits = 20;
  static inline Orec table[1u << kBits];

  static __attribute__((always_inline)) Orec &of(uintptr_t addr) {
    return table[(addr >> 3) & ((1u << kBits) - 1)];
  }
  static constexpr bool locked(uint64_t w) { return w & 1; }
  static constexpr uint64_t version(uint64_t w) { return w >> 1; }
  static constexpr uint64_t unlocked(uint64_t time) { return time << 1; }
  static constexpr uint64_t lock_word(int slot) {
    return (static_cast<uint64_t>(slot) + 1) << 1 | 1;
  }
};

struct OrecLock {
  Orec *orec;
  uint64_t old; // the word before we locked it
};

// Spins on a lock held by another transaction before giving up.
constexpr unsigned kLockSpins = 128;

struct OrecTx {
  uint64_t start = 0;   // snapshot time
  uint64_t my_lock = 0; // OrecTable::lock_word(slot)
  GrowBuffer<Orec *> reads;
  GrowBuffer<OrecLock> locks;

  void begin(int slot) {
    my_lock = OrecTable::lock_word(slot);
    reads.clear();
    locks.clear();
    start = GlobalClock::now();
  }

  // The read set is still what the snapshot saw. Orecs we hold are valid: we
  // lock only orecs whose version is <= start.
  bool validate() const {
    for (size_t i = 0; i < reads.size; ++i) {
      uint64_t w = reads[i]->load(std::memory_order_acquire);
      if (w == my_lock)
        continue;
      if (OrecTable::locked(w) || OrecTable::version(w) > start)
        return false;
    }
    return true;
  }

  // Moves the snapshot to now if nothing read has changed.
  bool extend() {
    uint64_t now = GlobalClock::now();
    if (!validate())
      return false;
    start = now;
    return true;
  }

  // Reads N bytes at A (within one granule) into DST consistently. Returns
  // true if the orec is ours (the caller may need its redo log).
  template <class P>
  __attribute__((always_inline)) bool read_piece(TxThread &tx, void *dst,
                                                 uintptr_t a, size_t n) {
    Orec &o = OrecTable::of(a);
    unsigned spins = 0;
    for (;;) {
      uint64_t v1 = o.load(std::memory_order_acquire);
      if (v1 == my_lock) {
        memcpy(dst, reinterpret_cast<const void *>(a), n);
        return true;
      }
      if (__builtin_expect(OrecTable::locked(v1), 0)) {
        if (++spins > kLockSpins)
          tx_conflict<P>(tx, AbortCause::ReadConflict);
        spin_pause(spins);
        continue;
      }
      racy_copy(dst, reinterpret_cast<const void *>(a), n);
      std::atomic_thread_fence(std::memory_order_acquire);
      uint64_t v2 = o.load(std::memory_order_relaxed);
      if (__builtin_expect(v1 != v2, 0))
        continue;
      if (__builtin_expect(OrecTable::version(v1) > start, 0)) {
        if (!extend())
          tx_conflict<P>(tx, AbortCause::ReadConflict);
        continue;
      }
      reads.push_back(&o);
      return false;
    }
  }

  // Acquires the orec of A. Returns false (the caller aborts or fails its
  // commit) if another transaction holds it past the spin bound or a newer
  // version cannot be reconciled with the snapshot.
  enum class LockResult { Ok, Busy, Stale };
  LockResult lock(uintptr_t a) {
    Orec &o = OrecTable::of(a);
    unsigned spins = 0;
    for (;;) {
      uint64_t w = o.load(std::memory_order_relaxed);
      if (w == my_lock)
        return LockResult::Ok;
      if (OrecTable::locked(w)) {
        if (++spins > kLockSpins)
          return LockResult::Busy;
        spin_pause(spins);
        continue;
      }
      if (OrecTable::version(w) > start) {
        if (!extend())
          return LockResult::Stale;
        continue;
      }
      if (o.compare_exchange_weak(w, my_lock, std::memory_order_acquire)) {
        locks.push_back(OrecLock{&o, w});
        return LockResult::Ok;
      }
    }
  }

  template <class P> void lock_or_abort(TxThread &tx, uintptr_t a) {
    LockResult r = lock(a);
    if (__builtin_expect(r != LockResult::Ok, 0))
      tx_conflict<P>(tx, r == LockResult::Busy ? AbortCause::WriteConflict
                                               : AbortCause::Validation);
  }

  // Releases every lock with version TIME (commit; eager abort), or with the
  // version each had (nothing was written in place).
  void release_all(uint64_t time) {
    for (size_t i = 0; i < locks.size; ++i)
      locks[i].orec->store(OrecTable::unlocked(time),
                           std::memory_order_release);
    locks.clear();
  }
  void release_all_unchanged() {
    for (size_t i = 0; i < locks.size; ++i)
      locks[i].orec->store(locks[i].old, std::memory_order_release);
    locks.clear();
  }

  void free_buffers() {
    reads.release();
    locks.release();
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_OREC_TABLE_H
