//===- ring_policy.h - RingSTM: a ring of write signatures ------*- C++ -*-===//
//
// RingSTM (Spear et al., single-writer commit): every committed writer leaves
// its write signature (a 1024-bit Bloom filter) in a global ring of 1024
// entries. A transaction keeps a read signature; after each read, if writers
// have committed since its snapshot, it waits for their write-back and checks
// their signatures against its reads (intersection: abort), then moves its
// snapshot. Writes go to a redo log plus a write signature. Commit: validate,
// claim the next ring slot with one CAS, publish the signature, write back,
// and complete in ring order. Privatization-safe without quiescence (in-order
// completion; every read is checked against newer commits).
//
//   made of: BloomFilter + RedoLog + the ring + Hourglass; LOGGING
//            (stm_logging.h) holds the write set and writes it back (p_ring:
//            in the pool slot, Listing 1's lazy commit with the ring index as
//            the commit order)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_RING_POLICY_H
#define PTM_LIBS_RING_POLICY_H

#include "libs/redo_core.h"
#include "libs/stm_logging.h"
#include "runtime/base/hot_cold.h"
#include "runtime/stm/bloom_filter.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct RingT : RedoCore<Self, Logging> {
  using Core = RedoCore<Self, Logging>;
  using Log = typename Core::Log;
  using Core::redo;
  static constexpr uint64_t kRing = 1024;
  struct alignas(64) Entry {
    uint64_t filter[BloomFilter::kWords];
  };
  static inline Entry ring[kRing];
  alignas(64) static inline std::atomic<uint64_t> last_init{0};
  alignas(64) static inline std::atomic<uint64_t> last_complete{0};

  static inline thread_local uint64_t start_time;
  static inline thread_local BloomFilter reads, writes;

  static void free_thread() { redo.release(); }

  // Checks the writers committed since the snapshot; true (and the snapshot
  // moved) if none wrote what we read.
  static __attribute__((noinline)) bool check() {
    uint64_t index = last_init.load(std::memory_order_acquire);
    if (index == start_time)
      return true;
    for (unsigned spins = 0;
         last_complete.load(std::memory_order_acquire) < index;)
      spin_pause(spins);
    for (uint64_t i = index; i > start_time; --i)
      if (reads.intersects_shared(ring[i % kRing].filter))
        return false;
    // An entry we checked may have been recycled meanwhile.
    if (last_init.load(std::memory_order_acquire) >= start_time + 1 + kRing)
      return false;
    start_time = index;
    return true;
  }

  static void start(TxThread &) {
    reads.clear();
    writes.clear();
    start_time = last_complete.load(std::memory_order_acquire);
  }
  static bool still_valid(TxThread &) { return check(); }

  // (the read-only attempt: RedoCore::read_only, the glue's fast commit)
  static constexpr bool kReadOnlyFastCommit = true;
  static bool commit(TxThread &tx) {
    Log::commit_begin(tx);
    if (redo.empty())
      return Core::commit_read_only(tx);
    Log::redo_announce(tx);
    uint64_t index;
    for (;;) {
      index = last_init.load(std::memory_order_acquire);
      if (index != start_time) {
        if (!check())
          return false;
        continue;
      }
      if (last_init.compare_exchange_strong(index, index + 1))
        break;
    }
    writes.store_to(ring[(index + 1) % kRing].filter);
    // The ring index orders the writers: the commit order.
    Log::redo_commit(tx, redo, index + 1);
    for (unsigned spins = 0;
         last_complete.load(std::memory_order_acquire) != index;)
      spin_pause(spins);
    last_complete.store(index + 1, std::memory_order_release);
    return Core::end_commit(tx, false);
  }

  static void rollback(TxThread &tx) {
    Log::undo_writes(tx);
    Core::end_rollback(tx);
  }

  static __attribute__((always_inline)) void
  read_memory(TxThread &tx, void *dst, uintptr_t a, size_t n) {
    racy_copy(dst, reinterpret_cast<const void *>(a), n);
    std::atomic_thread_fence(std::memory_order_acquire);
    reads.add(a, n);
    if (__builtin_expect(
            last_init.load(std::memory_order_acquire) != start_time, 0) &&
        !check())
      tx_conflict<Self>(tx, AbortCause::ReadConflict);
  }

  // The inline fast path of read_memory for a T at A within one granule: no
  // writer committed since the snapshot. False: the slow path reads again
  // (the read signature keeps the bit set here, which it would set anyway).
  template <class T>
  PTM_INLINE static bool try_read_memory(TxThread &, T &dst, uintptr_t a) {
    racy_copy(&dst, reinterpret_cast<const void *>(a), sizeof(T));
    std::atomic_thread_fence(std::memory_order_acquire);
    reads.add_granule(granule_of(a));
    return __builtin_expect(
        last_init.load(std::memory_order_acquire) == start_time, 1);
  }

  // A read may hit the redo log only if the write signature has its granules.
  __attribute__((always_inline)) static bool may_have_written(uintptr_t a,
                                                              size_t n) {
    return writes.may_contain(granule_of(a)) ||
           writes.may_contain(granule_of(a + n - 1));
  }
  PTM_INLINE static void before_write(TxThread &, uintptr_t a, size_t n) {
    AccessSpan sp = Log::conflict_span(a, n);
    writes.add(sp.lo, sp.n);
  }
  PTM_INLINE static bool try_before_write(TxThread &tx, uintptr_t a, size_t n) {
    before_write(tx, a, n);
    return true;
  }
};

struct RingPolicy : RingT<RingPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_RING_POLICY_H
