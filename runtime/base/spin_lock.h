//===- spin_lock.h - test-and-test-and-set lock for 2-core machines -*- C++
//-*-//
//
// Spins reading the lock (no cache-line ping-pong), with a pause per round,
// and yields the CPU after a bounded number of rounds: threads may outnumber
// cores, and a preempted holder must get to run.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_BASE_SPIN_LOCK_H
#define PTM_RUNTIME_BASE_SPIN_LOCK_H

#include <atomic>
#include <sched.h>

namespace ptm {

class alignas(64) SpinLock {
public:
  void lock() {
    while (flag_.exchange(true, std::memory_order_acquire))
      wait_until_free();
  }
  bool try_lock() {
    return !flag_.load(std::memory_order_relaxed) &&
           !flag_.exchange(true, std::memory_order_acquire);
  }
  void unlock() { flag_.store(false, std::memory_order_release); }
  bool is_locked() const { return flag_.load(std::memory_order_relaxed); }

private:
  static constexpr unsigned kSpinsBeforeYield = 256;

  __attribute__((noinline)) void wait_until_free() {
    unsigned spins = 0;
    while (flag_.load(std::memory_order_relaxed)) {
      if (++spins < kSpinsBeforeYield) {
        __builtin_ia32_pause();
      } else {
        sched_yield();
        spins = 0;
      }
    }
  }

  std::atomic<bool> flag_{false}; // alignas(64): alone in its cache line
};

} // namespace ptm

#endif // PTM_RUNTIME_BASE_SPIN_LOCK_H
