//===- tx_slots.h - per-thread slots of the concurrent STMs -----*- C++ -*-===//
//
// Every thread that runs a transaction of a concurrent STM claims one slot
// (0 .. kMaxTxThreads-1) at its first begin and gives it back when it exits.
// A slot is its thread's small integer id (orec lock owners, TLRW reader
// bytes) and its announcement word: `active` is 0 outside a transaction and a
// fresh non-zero number while an attempt runs. Announcing is a sequentially
// consistent store, so a thread that announces and then reads a global flag,
// and a thread that sets the flag and then reads the announcements, cannot
// both miss each other (Dekker): that is how the hourglass drains
// (hourglass.h) and how quiescence (quiescence.h) finds running attempts.
// With the announcement a slot also records the reuse epoch the attempt began
// in (`epoch`, read from `epoch_now` before announcing): the persistent heap
// hands a freed block out again only once every attempt that began before
// the free is over (reuse_epoch.h).
//
// StmThread is the per-thread scheduling state shared by the policies.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_TX_SLOTS_H
#define PTM_RUNTIME_TX_SLOTS_H

#include "runtime/base/report.h"

#include <atomic>
#include <cstdint>
#include <pthread.h>
#include <sched.h>

namespace ptm {

// As many as the pool's presence flags (tx_presence.h): 2 MiB of slots, touched
// only as far as threads claim them (scans stop at the high water mark).
constexpr unsigned kMaxTxThreads = 32768;

// Pause in a spin loop; yields the CPU now and then (threads may outnumber
// cores, and whoever we wait for must get to run).
__attribute__((always_inline)) inline void spin_pause(unsigned &spins) {
  if (++spins % 64 == 0)
    sched_yield();
  else
    __builtin_ia32_pause();
}

struct alignas(64) TxSlot {
  std::atomic<uint64_t> active{0}; // 0: no attempt running
  std::atomic<uint64_t> epoch{0};  // reuse epoch the running attempt began in
  std::atomic<bool> used{false};   // claimed by a live thread
  std::atomic<uint32_t> solo_writing{0}; // a solo commit writes back now
                                         // (solo_owner.h)
};

// Per-thread scheduling state of a concurrent STM (constant-initialized,
// trivially destructible: static TLS without a wrapper).
struct StmThread {
  int slot = -1;               // claimed at the first begin
  uint64_t attempts = 0;       // announcements made (their values)
  bool owns_hourglass = false; // this thread holds the hourglass flag
  bool serial = false;         // running alone, in place (irrevocable)
  bool want_serial = false;    // the next attempt starts serial
  bool ending = false;         // the rollback in progress ends the transaction
  bool solo = false;           // the attempt runs alone, without orecs
                               // (solo_owner.h)
  uint64_t solo_word = 0;      // the ownership word the solo attempt holds
  int32_t solo_countdown = 0;  // begins until the next try to go solo
  int32_t solo_interval = 0;   // ... and between the tries (0: none failed)
  void (*cleanup)() = nullptr; // the policy's thread-exit hook
};

struct TxSlots {
  static inline TxSlot slots[kMaxTxThreads];
  static inline std::atomic<unsigned> high_water{0}; // slots ever claimed
  // The reuse epoch (reuse_epoch.h): advanced after every commit that freed
  // pool memory; read by every begin, so it has a line of its own.
  alignas(64) static inline std::atomic<uint64_t> epoch_now{1};
  static inline pthread_key_t exit_key;
  static inline pthread_once_t exit_once = PTHREAD_ONCE_INIT;

  static void on_exit(void *arg) {
    auto *st = static_cast<StmThread *>(arg);
    if (st->cleanup)
      st->cleanup();
    slots[st->slot].active.store(0, std::memory_order_release);
    slots[st->slot].used.store(false, std::memory_order_release);
    st->slot = -1;
  }
  static void make_key() {
    if (pthread_key_create(&exit_key, on_exit) != 0)
      fatal("cannot create the thread-exit key of the STM slots");
  }

  // Gives the calling thread a slot (released at thread exit).
  static __attribute__((noinline)) void claim(StmThread &st) {
    pthread_once(&exit_once, make_key);
    for (unsigned i = 0; i < kMaxTxThreads; ++i) {
      bool expected = false;
      if (!slots[i].used.load(std::memory_order_relaxed) &&
          slots[i].used.compare_exchange_strong(expected, true)) {
        st.slot = static_cast<int>(i);
        unsigned hw = high_water.load();
        while (hw < i + 1 && !high_water.compare_exchange_weak(hw, i + 1)) {
        }
        pthread_setspecific(exit_key, &st);
        return;
      }
    }
    fatal("more than %u threads run transactions at once", kMaxTxThreads);
  }

  // The epoch is stored before the announcement, which publishes it: a
  // reader that sees the announcement sees this epoch or a later one.
  // (ORDER relaxed: without the StoreLoad fence, for a thread whose readers
  // pay for it with fence_heavy: the solo owner, solo_owner.h.)
  static void announce(StmThread &st,
                       std::memory_order order = std::memory_order_seq_cst) {
    TxSlot &s = slots[st.slot];
    s.epoch.store(epoch_now.load(std::memory_order_relaxed),
                  std::memory_order_relaxed);
    s.active.store(++st.attempts, order);
  }
  static void retire(StmThread &st) {
    slots[st.slot].active.store(0, std::memory_order_release);
  }

  // Waits until no other thread runs an attempt.
  static void drain(const StmThread &st) {
    unsigned n = high_water.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i) {
      if (static_cast<int>(i) == st.slot)
        continue;
      for (unsigned spins = 0;
           slots[i].active.load(std::memory_order_acquire) != 0;)
        spin_pause(spins);
    }
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_TX_SLOTS_H
