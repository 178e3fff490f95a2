//===- commit_queue.h - commits waiting for the persister -------*- C++ -*-===//
//
// Buffered durability (durability.h). A commit, under its algorithm's locks,
// writes its redo log back in place (the pool's DRAM copy, no clwb), takes
// the next commit sequence number and appends its write set to its slot's
// queue:
//
//   [seq][n]  then items of n words in all:
//   [addr][len | flags << 32][len bytes, padded to 8]
//
// one item per log entry of the pool's data (a word entry: 8 bytes with its
// byte mask in FLAGS; a chunk entry: its chunk), and one per pool block the
// transaction allocated (kFreshBlock: its whole contents, which were written
// unlogged). The sequence is taken under the locks, so two transactions that
// conflict take it in their commit order, and it has no gap: the persister
// writes the longest run of consecutive sequence numbers it has.
//
// A queue that reaches kQueueKickWords wakes the persister when the
// transaction ends, without waiting for it: the persister takes the queue
// before the interval is up, so a queue and the one the persister writes stay
// small enough to live in the cache beside the program's data (a queue that
// grew for a whole interval streamed megabytes through the cache that the
// program's working set shares). A queue over kQueueBudgetWords makes its
// thread wait until the persister has taken it (wait_for_queue_room).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_COMMIT_QUEUE_H
#define PTM_RUNTIME_POOL_COMMIT_QUEUE_H

#include "runtime/base/grow_buffer.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/slot_log_index.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/thread_slot.h"

#include <atomic>
#include <cstdint>

namespace ptm {
namespace pool {

constexpr uint32_t kFreshBlock = 1u << 8; // item flag (byte mask: bits 0-7)
constexpr size_t kQueueKickWords = size_t(1) << 16;   // 512 KiB
constexpr size_t kQueueBudgetWords = size_t(1) << 20; // 8 MiB per thread

struct alignas(64) CommitQueue {
  std::atomic<bool> busy{false};
  std::atomic<uint64_t> words_queued{0}; // (read by the persister unlocked)
  GrowBuffer<uint64_t> words;

  void lock() {
    while (busy.exchange(true, std::memory_order_acquire))
      __builtin_ia32_pause();
  }
  void unlock() { busy.store(false, std::memory_order_release); }
};

extern CommitQueue commit_queues[kMaxSlots];
// The last commit sequence number taken (0: none since the pool opened; sp3:
// the largest order queued, from the clock's value at open).
extern std::atomic<uint64_t> commit_seq;

// The buffered commit of S's redo log, under the algorithm's locks (TX: its
// allocations; [skip_lo, skip_hi): its private stack frames).
void commit_buffered(SlotHandle &s, TxThread &tx, uintptr_t skip_lo,
                     uintptr_t skip_hi);

// The in-place buffered commit (libs/buffered_in_place.h), under the global
// lock: the current bytes of every key in WRITTEN (its record: how many
// bytes from the key; the pool's data only) and TX's blocks, queued with the
// next sequence number. Nothing when TX wrote and allocated nothing.
void commit_buffered_in_place(SlotHandle &s, TxThread &tx,
                              const SlotLogIndex &written);

// sp3 (speculative.h), under the locks: S's redo entries (if ENTRIES; they
// are written back) and TX's blocks queued with the sequence number SEQ, the
// transaction's commit order; an attempt that took SEQ and failed queues an
// empty item with it (queue_empty), so the sequence has no gap.
void queue_speculative(SlotHandle &s, TxThread &tx, uint64_t seq, bool entries);
void queue_empty(SlotHandle &s, uint64_t seq);

// leave_tx: if S's queue is over its budget, waits until the persister has
// taken it (the persister then writes it while the thread goes on); if it
// has only passed kQueueKickWords, wakes the persister and goes on.
void wait_for_queue_room(SlotHandle &s);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_COMMIT_QUEUE_H
