//===- orec_table.h - ownership records (versioned locks) -------*- C++ -*-===//
//
// OrecTable<G>: a table of 2^20 orecs (8 MiB); the G-byte block at address
// A is covered by orec (A / G) mod 2^20. G is the library's log granularity
// (Logging::kConflictGranule: 8-byte words, or the ip_ libraries' G-byte
// chunks, as in the paper, Section IV-B), so one orec guards one log entry,
// an access within a granule needs one orec and the table's footprint is
// 8 bytes per G bytes of data. An orec is one word: unlocked, the version
// (the global-clock time of the last commit that wrote under it, < 2^63);
// locked, `2^63 | slot`, the owner's lock word (tx_slots.h). So "unlocked at
// a version the snapshot covers" is one unsigned compare, `w <= start`: the
// read barrier's test.
//
// OrecTx<G> is the per-thread part shared by orec_eager, orec_lazy and
// orec_mixed: the snapshot time, the read set (orecs read) and the lock set
// (orecs held, with the version each had), and the operations written once
// for all of them:
//   try_read    the fast path of a read within one G-byte block, inline:
//               orec unlocked at a version <= the snapshot, unchanged around
//               the copy; anything else is left to read_piece
//   read_piece  consistent read of bytes within one block (TL2 pre/post
//               version check; a newer version extends the snapshot)
//   try_lock    the fast path of lock, inline: the orec is ours, or free at
//               a version <= the snapshot and one CAS takes it
//   lock        acquire an orec (bounded spin, then abort)
//   validate    every orec read still unlocked-or-ours at version <= start
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_OREC_TABLE_H
#define PTM_RUNTIME_OREC_TABLE_H

#include "runtime/base/grow_buffer.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/policy_base.h"
#include "runtime/stm/global_clock.h"
#include "runtime/stm/stm_access.h"
#include "runtime/stm/tx_slots.h"

#include <atomic>
#include <cstdint>
#include <cstring>

namespace ptm {

using Orec = std::atomic<uint64_t>;

// The orec word, whatever the table.
struct OrecWord {
  static constexpr uint64_t kLockBit = uint64_t(1) << 63;
  static constexpr bool locked(uint64_t w) { return w & kLockBit; }
  static constexpr uint64_t version(uint64_t w) { return w; }
  static constexpr uint64_t unlocked(uint64_t time) { return time; }
  static constexpr uint64_t lock_word(int slot) {
    return kLockBit | static_cast<uint64_t>(slot);
  }
  // Unlocked at a version <= TIME (a lock word is above every time).
  static constexpr bool covered(uint64_t w, uint64_t time) { return w <= time; }
};

template <uintptr_t G> struct OrecTable : OrecWord {
  static_assert(G >= kGranule && (G & (G - 1)) == 0,
                "an orec covers a power-of-two block of whole granules");
  static constexpr uintptr_t kBlock = G;
  // (Measured with G = 32, ip_orec_lazy: 2^16 or 2^14 orecs, which fit in
  // L2, cut the simulated L2 misses of bptree_insert by 2% or 13% but
  // doubled or quadrupled the aborts of tpcc_hash at 2 threads, aliasing.)
  static constexpr unsigned kBits = 20;
  static inline Orec table[1u << kBits];

  static PTM_INLINE Orec &of(uintptr_t addr) {
    return table[(addr / G) & ((uintptr_t(1) << kBits) - 1)];
  }
  // [addr, addr + n) lies in one block (one orec).
  static PTM_INLINE bool one_block(uintptr_t addr, size_t n) {
    return (addr & (G - 1)) + n <= G;
  }
};

struct OrecLock {
  Orec *orec;
  uint64_t old; // the word before we locked it
};

// Spins on a lock held by another transaction before giving up.
constexpr unsigned kLockSpins = 128;

template <uintptr_t G> struct OrecTx {
  using Table = OrecTable<G>;
  uint64_t start = 0;   // snapshot time
  uint64_t my_lock = 0; // OrecWord::lock_word(slot)
  GrowBuffer<Orec *> reads;
  // The last orec appended to READS: a read under the same orec (the next
  // word of the same block, the common case of a scan) is not appended
  // again, so the read set and the commit's validation shrink.
  Orec *last_read = nullptr;
  GrowBuffer<OrecLock> locks;

  void begin(int slot) {
    my_lock = OrecWord::lock_word(slot);
    reads.clear();
    last_read = nullptr;
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
      if (!OrecWord::covered(w, start))
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

  // The common case of read_piece for a T at A within one block: the orec
  // is unlocked at a version the snapshot covers and unchanged around the
  // copy, and the read set has room; with OWN_IN_PLACE (memory under our
  // lock holds our writes: orec_eager), an orec we hold is read in place
  // too. False: nothing was recorded, read_piece must do the read.
  template <bool OwnInPlace, class T>
  PTM_INLINE bool try_read(T &dst, uintptr_t a) {
    Orec &o = Table::of(a);
    uint64_t v1 = o.load(std::memory_order_acquire);
    if (OwnInPlace && v1 == my_lock) {
      memcpy(&dst, reinterpret_cast<const void *>(a), sizeof(T));
      return true;
    }
    if (__builtin_expect(!OrecWord::covered(v1, start), 0))
      return false;
    racy_copy(&dst, reinterpret_cast<const void *>(a), sizeof(T));
    std::atomic_thread_fence(std::memory_order_acquire);
    if (__builtin_expect(o.load(std::memory_order_relaxed) != v1, 0))
      return false;
    if (&o != last_read) {
      if (__builtin_expect(!reads.try_push_back(&o), 0))
        return false;
      last_read = &o;
    }
    return true;
  }

  // Reads N bytes at A (within one block) into DST consistently. Returns
  // true if the orec is ours (the caller may need its redo log).
  template <class P>
  bool read_piece(TxThread &tx, void *dst, uintptr_t a, size_t n) {
    Orec &o = Table::of(a);
    unsigned spins = 0;
    for (;;) {
      uint64_t v1 = o.load(std::memory_order_acquire);
      if (v1 == my_lock) {
        memcpy(dst, reinterpret_cast<const void *>(a), n);
        return true;
      }
      if (__builtin_expect(OrecWord::locked(v1), 0)) {
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
      if (__builtin_expect(OrecWord::version(v1) > start, 0)) {
        if (!extend())
          tx_conflict<P>(tx, AbortCause::ReadConflict);
        continue;
      }
      if (&o != last_read) {
        reads.push_back(&o);
        last_read = &o;
      }
      return false;
    }
  }

  // The common case of lock for A: the orec is ours already, or unlocked at
  // a version <= start and taken by one CAS with room in the lock set.
  // False: nothing changed, lock must do it.
  PTM_INLINE bool try_lock(uintptr_t a) {
    Orec &o = Table::of(a);
    uint64_t w = o.load(std::memory_order_relaxed);
    if (__builtin_expect(w == my_lock, 1))
      return true;
    if (!OrecWord::covered(w, start) || !locks.has_room() ||
        !o.compare_exchange_strong(w, my_lock, std::memory_order_acquire))
      return false;
    locks.push_back_in_room(OrecLock{&o, w});
    return true;
  }

  // Acquires the orec of A. Returns false (the caller aborts or fails its
  // commit) if another transaction holds it past the spin bound or a newer
  // version cannot be reconciled with the snapshot.
  enum class LockResult { Ok, Busy, Stale };
  LockResult lock(uintptr_t a) {
    Orec &o = Table::of(a);
    unsigned spins = 0;
    for (;;) {
      uint64_t w = o.load(std::memory_order_relaxed);
      if (w == my_lock)
        return LockResult::Ok;
      if (OrecWord::locked(w)) {
        if (++spins > kLockSpins)
          return LockResult::Busy;
        spin_pause(spins);
        continue;
      }
      if (OrecWord::version(w) > start) {
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
      locks[i].orec->store(OrecWord::unlocked(time), std::memory_order_release);
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
