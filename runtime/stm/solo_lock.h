//===- solo_lock.h - cgl's lock with no locked instruction ------*- C++ -*-===//
//
// Solo mode for the cgl-lazy family (gp_/ip_cgl_lazy; docs/algorithms.md
// "Solo mode", PTM_OPT_SOLO). A program often runs its transactions on one
// thread for long stretches. Every begin of a cgl transaction then takes the
// global lock with an `xchg`, and a locked instruction waits until every
// store and flush before it has drained: right after a commit, that is the
// commit's clwb of the last record's data lines and its record lines, so the
// begin of the next transaction waits for the previous one to reach memory.
// Without it, that drain overlaps with the next transaction's work (until
// its own commit's fence).
//
// The lock is biased to one thread at a time, its owner. `bias` holds the
// owner's ticket (a number no other take has had) or 0; the owner's own
// `busy` flag is 1 while it is inside a transaction it entered by the bias.
//   - The owner's enter: busy = 1 (a plain store), a compiler barrier
//     (fence_light), then `bias` read: still its ticket, it holds the lock;
//     changed (revoked), busy = 0 and it takes the spin lock like anybody.
//     Its leave: busy = 0, a release store.
//   - Every other enter takes the spin lock (xchg), then reads `bias`.
//     Finding a ticket there, it revokes it: `bias` = 0 (seq_cst), then
//     fence_heavy (membarrier: every running thread executes a full
//     barrier, which pays for the owner's missing StoreLoad fence), then it
//     waits while the owner's `busy` is 1. Dekker's pair (busy, then bias)
//     against (bias, then busy) has a full fence on each side: so either the
//     owner sees the revocation, or the revoker sees the owner inside and
//     waits for its leave, whose release store hands over its writes.
//   - A thread holding the spin lock with no bias in place takes it now and
//     then: at its first enter, then (after a loss) every 64, 128, ... up to
//     16384 enters. Its ticket is a counter bumped under the spin lock, and
//     `owner_busy` points at its flag. Its transaction still releases the
//     spin lock; from its next enter on, it uses the bias.
// Each owner writes only its own flag, so one whose ticket was revoked (and
// which has not yet noticed) never hides another owner's transaction. A
// thread that exits holding the bias gives it back (under the spin lock),
// so no revoker reads the flag of a thread that is gone. Where membarrier is
// missing (asymmetric_fence.h), fence_light is a full fence: correct, and
// no faster than the spin lock.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_STM_SOLO_LOCK_H
#define PTM_RUNTIME_STM_SOLO_LOCK_H

#include "runtime/base/asymmetric_fence.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/spin_lock.h"
#include "runtime/base/thread_exit_key.h"
#include "runtime/base/tx_thread.h"
#include "runtime/stm/tx_slots.h"

#include <atomic>
#include <cstdint>

namespace ptm {

// A thread's state for SoloTxLock: its flag (1 while its transaction holds
// the lock by the bias), the ticket of its bias (0: none), and its enters
// until its next try to take it.
struct SoloLockThread {
  static constexpr int32_t kFirstTry = 64;
  static constexpr int32_t kMaxInterval = 1 << 14;
  std::atomic<uint32_t> busy{0};
  uint64_t ticket = 0;
  int32_t countdown = 0;
  int32_t interval = kFirstTry;
};

struct SoloTxLock {
  SpinLock lock;
  alignas(64) std::atomic<uint64_t> bias{0};
  // (under the spin lock: the owner's flag, and the last ticket given)
  std::atomic<uint32_t> *owner_busy = nullptr;
  uint64_t tickets = 0;

  using Mine = SoloLockThread;
  static inline thread_local Mine mine;

  PTM_INLINE void enter() {
    Mine &m = mine;
    if (__builtin_expect(m.ticket != 0, 1)) {
      m.busy.store(1, std::memory_order_relaxed);
      fence_light();
      if (__builtin_expect(bias.load(std::memory_order_relaxed) == m.ticket, 1))
        return;
      lost();
    }
    enter_locked();
  }

  PTM_INLINE void leave() {
    Mine &m = mine;
    if (__builtin_expect(m.busy.load(std::memory_order_relaxed) != 0, 1))
      return m.busy.store(0, std::memory_order_release);
    lock.unlock();
  }

  // True inside a transaction that holds the lock by the bias.
  static bool solo() { return mine.busy.load(std::memory_order_relaxed); }

  template <class P> void write_hook(TxThread &) {}
  void drain() {}

private:
  // The owner found its ticket revoked: it waits for the spin lock like
  // anybody, and tries again later (the interval doubles).
  PTM_SLOW void lost() {
    Mine &m = mine;
    m.busy.store(0, std::memory_order_release);
    m.ticket = 0;
    m.countdown = m.interval;
    if (m.interval < Mine::kMaxInterval)
      m.interval *= 2;
  }

  PTM_INLINE void enter_locked() {
    lock.lock();
    if (__builtin_expect(bias.load(std::memory_order_relaxed) != 0, 0))
      revoke();
    Mine &m = mine;
    if (__builtin_expect(--m.countdown < 0, 0))
      take();
  }

  // (under the spin lock, no bias in place)
  PTM_SLOW void take() {
    Mine &m = mine;
    m.ticket = ++tickets;
    owner_busy = &m.busy;
    ThreadExitKey<give_back>::set(this);
    bias.store(m.ticket, std::memory_order_seq_cst);
  }

  // (under the spin lock)
  PTM_SLOW void revoke() {
    bias.store(0, std::memory_order_seq_cst);
    fence_heavy();
    for (unsigned spins = 0; owner_busy->load(std::memory_order_acquire) != 0;)
      spin_pause(spins);
    owner_busy = nullptr;
  }

  // At the exit of a thread that took the bias: its ticket, if still in
  // place, is withdrawn (the thread is inside no transaction).
  static void give_back(void *arg) {
    auto *l = static_cast<SoloTxLock *>(arg);
    l->lock.lock();
    if (mine.ticket != 0 &&
        l->bias.load(std::memory_order_relaxed) == mine.ticket) {
      l->bias.store(0, std::memory_order_relaxed);
      l->owner_busy = nullptr;
    }
    mine.ticket = 0;
    l->lock.unlock();
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_STM_SOLO_LOCK_H
