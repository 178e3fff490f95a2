//===- global_rw_lock.h - one writer, readers in parallel -------*- C++ -*-===//
//
// GlobalRwLock: the lock of a library whose transactions read memory with
// plain loads. Every transaction arrives as a reader; readers run in
// parallel. The first write makes the transaction the writer (at most one:
// the writer token) or, when another holds the token, restarts it, and the
// restarted attempt arrives as the writer, taking the token once it is free
// (so writers starve no transaction: it restarts once at most). A writer that
// writes in place drains the readers at once (the Romulus peer); one that
// buffers its writes (ip_rwl_lazy) runs beside them and drains them only for
// its write-back. While a writer drains, arriving readers wait.
//
//   arrive                   as a reader, or as the writer after a failed
//                            try_write (returns which)
//   read_lock, read_unlock   arrive / leave as a reader
//   try_write                the calling reader takes the token and stops
//                            counting as a reader; false: another writer
//                            has it (the caller restarts)
//   drain                    (the writer) readers arriving now wait; returns
//                            once the readers present have left
//   write_unlock             ends the drain and frees the token
//
// Reader counts are spread over 64 cache lines (a thread counts in one;
// threads may share one, hence counts); the writer scans the lines handed
// out so far. Arrival and drain are the two sides of Dekker's pattern: the
// reader counts itself and then reads the flag, the writer sets the flag and
// then reads the counts, all seq_cst, so one of them sees the other.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_GLOBAL_RW_LOCK_H
#define PTM_LIBS_GLOBAL_RW_LOCK_H

#include "runtime/base/spin_lock.h"

#include <atomic>
#include <cstdint>
#include <sched.h>

namespace ptm {

struct alignas(64) ReaderCount {
  std::atomic<uint32_t> n{0};
};

class GlobalRwLock {
public:
  // Arrives as a reader (false), or, in the attempt after a failed
  // try_write, as the writer (true): it takes the token once it is free,
  // so a transaction restarts at most once for want of it.
  bool arrive() {
    if (__builtin_expect(wait_for_token, 0)) {
      wait_for_token = false;
      token_.lock();
      return true;
    }
    read_lock();
    return false;
  }

  void read_lock() {
    ReaderCount &c = mine();
    for (;;) {
      c.n.fetch_add(1, std::memory_order_seq_cst);
      if (!draining_.load(std::memory_order_seq_cst))
        return;
      c.n.fetch_sub(1, std::memory_order_release);
      for (unsigned spins = 0; draining_.load(std::memory_order_relaxed);)
        pause_or_yield(spins);
    }
  }
  void read_unlock() { mine().n.fetch_sub(1, std::memory_order_release); }

  bool try_write() {
    if (!token_.try_lock()) {
      wait_for_token = true; // the next attempt arrives as the writer
      return false;
    }
    read_unlock();
    return true;
  }

  void drain() {
    draining_.store(true, std::memory_order_seq_cst);
    unsigned used = next_cell_.load(std::memory_order_seq_cst);
    for (unsigned i = 0; i < used && i < kCells; ++i)
      for (unsigned spins = 0;
           cells_[i].n.load(std::memory_order_seq_cst) != 0;)
        pause_or_yield(spins);
  }

  void write_unlock() {
    draining_.store(false, std::memory_order_release);
    token_.unlock();
  }

private:
  static constexpr unsigned kCells = 64;
  ReaderCount cells_[kCells];
  SpinLock token_;
  alignas(64) std::atomic<bool> draining_{false};
  std::atomic<unsigned> next_cell_{0};
  static inline thread_local int my_cell = -1;
  static inline thread_local bool wait_for_token = false;

  ReaderCount &mine() {
    if (__builtin_expect(my_cell < 0, 0))
      my_cell = static_cast<int>(next_cell_.fetch_add(1) % kCells);
    return cells_[my_cell];
  }

  // Threads may outnumber cores: a waiter yields now and then so that a
  // preempted holder can run.
  static void pause_or_yield(unsigned &spins) {
    if (++spins < 256) {
      __builtin_ia32_pause();
    } else {
      sched_yield();
      spins = 0;
    }
  }
};

} // namespace ptm

#endif // PTM_LIBS_GLOBAL_RW_LOCK_H
