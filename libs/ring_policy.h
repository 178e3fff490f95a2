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

#include "libs/stm_logging.h"
#include "runtime/stm/bloom_filter.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct RingT : Logging<Self> {
  using Log = Logging<Self>;
  using Log::serial;
  using Log::serial_read;
  static constexpr uint64_t kRing = 1024;
  struct alignas(64) Entry {
    uint64_t filter[BloomFilter::kWords];
  };
  static inline Entry ring[kRing];
  alignas(64) static inline std::atomic<uint64_t> last_init{0};
  alignas(64) static inline std::atomic<uint64_t> last_complete{0};

  static inline thread_local uint64_t start_time;
  static inline thread_local BloomFilter reads, writes;
  static inline thread_local typename Log::Redo redo;

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

  static void start(TxThread &tx) {
    tx.undo.clear();
    redo.clear();
    reads.clear();
    writes.clear();
    start_time = last_complete.load(std::memory_order_acquire);
  }
  static void begin(TxThread &tx) {
    Log::attempt_begin(tx);
    stm_thread.cleanup = free_thread;
    Hourglass::enter(tx, stm_thread);
    start(tx);
  }
  static void begin_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable) {
      Log::begin_irrevocable(tx);
    } else {
      stm_thread.cleanup = free_thread;
      Hourglass::enter_serial(tx, stm_thread);
      start(tx);
    }
  }
  static bool become_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable) {
      return false;
    } else {
      Hourglass::serialize<Self>(tx, stm_thread,
                                 [](TxThread &) { return check(); });
      PrivateStack stack = PrivateStack::of(tx);
      redo.write_back(stack.lo, stack.hi, &tx.undo);
      redo.clear();
      return true;
    }
  }

  static bool commit(TxThread &tx) {
    StmThread &st = stm_thread;
    Log::commit_begin(tx);
    if (redo.empty()) {
      tx.undo.clear();
      Hourglass::leave(st);
      Log::attempt_end(tx);
      return true;
    }
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
    Log::redo_released(tx);
    Hourglass::leave(st);
    Log::attempt_end(tx);
    return true;
  }

  static void rollback(TxThread &tx) {
    Log::undo_writes(tx);
    Log::redo_discard(tx, redo);
    Hourglass::leave_after_abort(stm_thread);
    Log::attempt_end(tx);
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

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    auto a = reinterpret_cast<uintptr_t>(tm);
    read_memory(tx, priv, a, n);
    if (!redo.empty())
      redo.overlay(priv, a, n);
  }

  template <class T>
  __attribute__((always_inline)) static T read(TxThread &tx, const T *addr) {
    if (serial())
      return serial_read(addr);
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(!redo.empty(), 0) &&
        (writes.may_contain(granule_of(a)) ||
         writes.may_contain(granule_of(a + sizeof(T) - 1)))) {
      if (redo.overlay(&value, a, sizeof(T)))
        return value;
      read_memory(tx, &value, a, sizeof(T));
      redo.overlay(&value, a, sizeof(T));
      return value;
    }
    read_memory(tx, &value, a, sizeof(T));
    return value;
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (serial())
      return Log::serial_write(tx, addr, value);
    auto a = reinterpret_cast<uintptr_t>(addr);
    redo.put(a, &value, sizeof value);
    AccessSpan sp = Log::conflict_span(a, sizeof value);
    writes.add(sp.lo, sp.n);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (serial())
      return Log::serial_write_bytes(tx, tm, priv, n);
    auto a = reinterpret_cast<uintptr_t>(tm);
    redo.put(a, priv, n);
    AccessSpan sp = Log::conflict_span(a, n);
    writes.add(sp.lo, sp.n);
  }
};

struct RingPolicy : RingT<RingPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_RING_POLICY_H
