//===- combining_lock.h - readers in parallel, batched writers --*- C++ -*-===//
//
// CombiningLock: the concurrency of the flat-combining forms of Trinity and
// Quadra (PPoPP 2021) for transactions that the program runs itself. In the
// originals a writer announces its transaction; one combiner takes the
// writers' lock, runs every announced transaction in turn and makes them
// durable together behind the protocol's fences, while readers wait (a
// C-RW-WP lock: readers in parallel with each other, never with the
// combiner). A ptm transaction is code in its own thread's frame, so no
// other thread can run it; here the writers of a batch run their own
// transactions one after the other instead, and the last makes the batch
// durable:
//
//   arrive        a transaction starts as a reader, or, while a batch is
//                 open (the originals' readers would wait; a writer would
//                 announce itself), queues for the writer token; after a
//                 failed try_write, too
//   try_write     a reader's first write takes the token (and opens a
//                 batch: readers present finish first) or fails (another
//                 writer has it: the caller restarts, arriving as a writer)
//   pass_on       at the end of the holder's transaction: if writers queue,
//                 the token goes to the next of them and the batch stays
//                 open (the caller then waits_durable); otherwise the
//                 holder makes the batch durable and close_batch()es it
//
// Readers never see a batch before it is durable (the batch is open until
// its commit has fenced). A batch holds at most one transaction per thread:
// a writer waits for its batch before its next transaction. The token, the
// batch's number and what the batch wrote belong to the token's holder.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_DURABLETX_COMBINING_LOCK_H
#define PTM_BENCH_DURABLETX_COMBINING_LOCK_H

#include "runtime/base/spin_lock.h"

#include <atomic>
#include <cstdint>
#include <sched.h>

namespace ptm {

class CombiningLock {
public:
  // Arrives as a reader (false) or as the token's holder (true).
  bool arrive() {
    if (__builtin_expect(wait_for_token, 0)) {
      wait_for_token = false;
      take_token();
      return true;
    }
    ReaderCount &c = mine();
    c.n.fetch_add(1, std::memory_order_seq_cst);
    if (!batch_open_.load(std::memory_order_seq_cst))
      return false;
    c.n.fetch_sub(1, std::memory_order_release);
    take_token();
    return true;
  }

  void read_unlock() { mine().n.fetch_sub(1, std::memory_order_release); }

  bool try_write() {
    if (!token_.try_lock()) {
      wait_for_token = true;
      return false;
    }
    read_unlock();
    open_batch();
    return true;
  }

  // The number of the holder's batch.
  uint64_t batch() const { return batch_; }

  // True: the token went to a queued writer (the batch stays open).
  bool pass_on() {
    if (queued_.load(std::memory_order_seq_cst) == 0)
      return false;
    token_.unlock();
    return true;
  }

  // The holder's batch is durable: readers may enter, the token is free.
  void close_batch() {
    durable_.store(batch_, std::memory_order_release);
    ++batch_;
    batch_open_.store(false, std::memory_order_release);
    token_.unlock();
  }

  void wait_durable(uint64_t batch) {
    for (unsigned spins = 0; durable_.load(std::memory_order_acquire) < batch;)
      pause_or_yield(spins);
  }

private:
  struct alignas(64) ReaderCount {
    std::atomic<uint32_t> n{0};
  };
  static constexpr unsigned kCells = 64;
  ReaderCount cells_[kCells];
  SpinLock token_;
  alignas(64) std::atomic<bool> batch_open_{false};
  std::atomic<uint32_t> queued_{0};
  std::atomic<unsigned> next_cell_{0};
  alignas(64) std::atomic<uint64_t> durable_{0};
  uint64_t batch_ = 1; // (the holder's)
  static inline thread_local int my_cell = -1;
  static inline thread_local bool wait_for_token = false;

  void take_token() {
    queued_.fetch_add(1, std::memory_order_seq_cst);
    token_.lock();
    queued_.fetch_sub(1, std::memory_order_relaxed);
    open_batch();
  }

  // Readers arriving now queue; those present finish (Dekker's pattern with
  // arrive: both sides seq_cst).
  void open_batch() {
    batch_open_.store(true, std::memory_order_seq_cst);
    unsigned used = next_cell_.load(std::memory_order_seq_cst);
    for (unsigned i = 0; i < used && i < kCells; ++i)
      for (unsigned spins = 0;
           cells_[i].n.load(std::memory_order_seq_cst) != 0;)
        pause_or_yield(spins);
  }

  ReaderCount &mine() {
    if (__builtin_expect(my_cell < 0, 0))
      my_cell = static_cast<int>(next_cell_.fetch_add(1) % kCells);
    return cells_[my_cell];
  }

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

#endif // PTM_BENCH_DURABLETX_COMBINING_LOCK_H
