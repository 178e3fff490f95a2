//===- persister.h - writes buffered commits to the file --------*- C++ -*-===//
//
// The persister of buffered durability (durability.h) is one thread of the
// runtime with a slot of its own, whose pointers are moved to the PM view.
// Every interval, at ptm_sync, when a thread's queue reaches its kick size
// or passes its budget, and at close, it takes the commit queues
// (commit_queue.h) and writes the longest run of consecutive sequence
// numbers, in order, as redo records of whole transactions in its slot:
//
//   the write sets merged into the record's entries (a word written by
//   several transactions: the last value); the record flushed and sealed,
//   sfence; streamed into the PM view (non-temporal stores), sfence; idle,
//   clwb, sfence
//
// A crash leaves at most one committed record, which recovery replays: the
// file holds the pool after a prefix of the sequence. In the file domain
// (persist/domain.h) the records go round a ring of slots so that a round
// syncs its record's pages alone and the data pages are synced once for
// several rounds (persister.cpp, kRing), and strict durability
// uses the persister too: each commit waits for the round that holds it
// (persister_wait; durability.h awaited). A transaction larger
// than the slot first has every earlier one written; the blocks it allocated
// then go to the PM view directly (free memory in that prefix), so only its
// logged words must fit.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_PERSISTER_H
#define PTM_RUNTIME_POOL_PERSISTER_H

#include <atomic>
#include <cstdint>

namespace ptm {
namespace pool {

// Starts the thread (the pool's mutex held; its slot is claimed here); the
// first sequence number to come is FIRST + 1. FD: the pool file, open for
// writing, the persister's until stop_persister closes it.
void start_persister(unsigned interval_ms, uintptr_t delta, uint64_t first,
                     int fd);
// Writes every queued commit and ends the thread (no transaction running).
void stop_persister();
// Returns once every commit sequence number up to SEQ is in the PM view.
void persister_sync(uint64_t seq);
// Returns once QUEUED (a thread's commit queue's size) is at most BUDGET:
// wakes the persister, whose next round takes the queue and then writes it
// while the thread goes on (at most two budgets per thread: the queue being
// written and the one filling).
void persister_take(const std::atomic<uint64_t> &queued, uint64_t budget);
// persister_sync, returning at once when SEQ is durable already.
void persister_wait(uint64_t seq);
// Wakes the persister for a round now, without waiting for it.
void persister_kick();

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_PERSISTER_H
