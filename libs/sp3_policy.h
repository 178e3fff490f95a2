//===- sp3_policy.h - SP3: speculative parallel persistence -----*- C++ -*-===//
//
// SP3 (DAC'20, ../shared/papers/sp3-concurrency-of-pm-transactions.txt) on
// ip_orec_lazy: the same reads, writes, orecs and clock, but a committing
// writer releases its orecs before its log is durable, and returns only once
// its record and those of the transactions it depends on are
// (runtime/pool/speculative.h; docs/algorithms.md "sp3"):
//
//   lock the write set; T = tick; T pending; validate (failed: T queued
//   empty); the dependencies: the versions of the orecs read or overwritten
//   that another slot has pending; write back into the DRAM copy and queue
//   for the persister; release the orecs with T
//   -- visible --
//   the record into the slot's speculative log (entries, dependencies), one
//   sfence; wait until no dependency is pending; T no longer pending
//
// A read-only transaction waits for the pending orders at or below its
// snapshot (what it may have read) before it returns. The commit order is
// the clock time (the orecs' versions), so a dependency is an orec version;
// the persister writes the PM view in that order, and its progress is the
// floor.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_SP3_POLICY_H
#define PTM_LIBS_SP3_POLICY_H

#include "libs/orec_lazy_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/pool/speculative.h"

#include <algorithm>

namespace ptm {

// The IP model's options; sp3 builds its records as the log ring's (the
// whole slot on the two views, LogRing::open), whatever the ablation
// switches of the other libraries say.
struct Sp3Options : IpOptions {
  static constexpr bool kDeferredFlush = true;
  static constexpr bool kSealedLog = true;
  static constexpr bool kLogRing = true;
  static constexpr bool kSkipRewritten = false;
  static constexpr bool kSolo = false; // (its own commit: no solo commit)
};

// The IP model's logging with sp3's commit: the write set queued under the
// locks (speculative_queue), the record written once they are released.
template <class Self> struct Sp3Logging : PersistentLoggingT<Self, Sp3Options> {
  using Base = PersistentLoggingT<Self, Sp3Options>;
  using typename Base::Redo;

  // The orders the committing attempt depends on (sorted, distinct).
  static inline thread_local GrowBuffer<uint64_t> deps;

  static void redo_commit(TxThread &tx, Redo &, uint64_t order) {
    PrivateStack stack = PrivateStack::of(tx);
    bool big = pool::speculative && !log_blocks(tx);
    pool::speculative_queue(pool::tls_slot, tx, stack.lo, stack.hi, order, big,
                            deps.size);
  }
  // The pool blocks TX allocated, logged whole into its record if together
  // they fit the record's budget (pool::logged_block_budget); false (none
  // logged) if they do not.
  static bool log_blocks(TxThread &tx) {
    pool::SlotHandle &s = pool::tls_slot;
    uint64_t total = 0;
    for (size_t i = 0; i < tx.allocs.size; ++i)
      if (pool::pool_heap && pool::pool_heap->contains(tx.allocs[i].ptr))
        total += tx.allocs[i].size;
    if (total > pool::logged_block_budget(s.slot_capacity))
      return false;
    for (size_t i = 0; total != 0 && i < tx.allocs.size; ++i) {
      void *p = tx.allocs[i].ptr;
      if (pool::pool_heap->contains(p))
        PersistentRedoLog::log_block<Base::kCoarseLog>(s, p, tx.allocs[i].size);
    }
    return true;
  }
  static void redo_released(TxThread &) {
    pool::speculative_finish(pool::tls_slot, deps.data, deps.size);
  }
};

struct Sp3Policy : OrecLazyT<Sp3Policy, Sp3Logging> {
  using Lazy = OrecLazyT<Sp3Policy, Sp3Logging>;
  using Log = Sp3Logging<Sp3Policy>;
  static constexpr bool kSpeculative = true;
  static std::atomic<uint64_t> *clock() { return &GlobalClock::time; }

  static void free_thread() {
    Lazy::free_thread();
    Log::deps.release();
    pool::speculative_thread_exit();
  }

  // A read-only attempt may wait for the commits its snapshot saw
  // (wait_snapshot_deps): it takes commit's branch, not the glue's.
  static constexpr bool kReadOnlyFastCommit = false;
  static bool commit(TxThread &tx) {
    Log::commit_begin(tx);
    if (redo.empty()) {
      if (pool::speculative)
        wait_snapshot_deps();
      return Core::commit_read_only(tx);
    }
    if (!lock_writes(tx))
      return false;
    uint64_t time = GlobalClock::tick();
    uint32_t slot = pool::tls_slot.index;
    pool::speculative_taken(slot, time);
    if (time != ot.start + 1 && !ot.validate()) {
      pool::speculative_dead(pool::tls_slot, time);
      return false;
    }
    collect_deps(slot);
    return Core::publish(tx, time);
  }

private:
  // The other slots' pending orders, sorted, into P; how many.
  static size_t pending_orders(uint32_t self, uint64_t *p) {
    size_t n = 0;
    uint32_t slots = pool::pending_high_water.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < slots; ++i) {
      uint64_t o =
          i == self
              ? 0
              : pool::pending_orders[i].order.load(std::memory_order_acquire);
      if (o != 0)
        p[n++] = o;
    }
    std::sort(p, p + n);
    return n;
  }

  // Under the locks, validated: the versions read or overwritten that are
  // pending (the others are stable: a pending order is cleared only once
  // its transaction has returned).
  static void collect_deps(uint32_t self) {
    auto &d = Log::deps;
    d.clear();
    if (!pool::speculative)
      return;
    uint64_t p[pool::kMaxSlots];
    size_t n = pending_orders(self, p);
    if (n == 0)
      return;
    auto add = [&](uint64_t v) {
      if (std::binary_search(p, p + n, v))
        d.push_back(v);
    };
    for (size_t i = 0; i < ot.reads.size; ++i) {
      uint64_t w = ot.reads[i]->load(std::memory_order_acquire);
      if (w != ot.my_lock)
        add(OrecWord::version(w));
    }
    for (size_t i = 0; i < ot.locks.size; ++i)
      add(OrecWord::version(ot.locks[i].old));
    std::sort(d.data, d.data + d.size);
    d.size = size_t(std::unique(d.data, d.data + d.size) - d.data);
  }

  // A read-only attempt: the orecs it read may have moved on since, so
  // every pending order its snapshot covers is waited for.
  static void wait_snapshot_deps() {
    uint32_t self = pool::tls_slot.index;
    uint64_t p[pool::kMaxSlots];
    size_t n = pending_orders(self, p);
    n = std::upper_bound(p, p + n, ot.start) - p;
    if (n != 0)
      pool::speculative_wait(self, p, n);
  }
};

} // namespace ptm

#endif // PTM_LIBS_SP3_POLICY_H
