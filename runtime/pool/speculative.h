//===- speculative.h - sp3's speculative persistence ------------*- C++ -*-===//
//
// SP3 (../shared/papers/sp3-concurrency-of-pm-transactions.txt) in ptm:
// a committing transaction makes its writes visible before its log is
// durable, and returns only once its own record and the records of every
// transaction it depends on are durable (docs/algorithms.md "sp3").
//
// It runs on the two views of buffered durability (durability.h): writes
// land in the pool's DRAM copy, so releasing the orecs before the fence
// cannot let a line reach the file ahead of its log. Under the commit's
// locks, with its commit order O (the clock time its orecs get):
//
//   speculative_taken   O is pending for the slot (before any orec shows O)
//   speculative_queue   written back in the DRAM copy and queued with O for
//                       the persister, which writes the PM view in order
//
// and, with the orecs released, speculative_finish: the record (its entries,
// with generation O, and the orders it depends on: the versions above the
// floor of the orecs it read or overwrote) streamed into the slot's
// speculative log in the PM view (pool_format.h kRedoStream), one sfence;
// then the wait until no slot has one of those orders pending (a pending
// order is cleared only once its transaction has returned, so dependencies
// are stable recursively); then O cleared. An attempt that took O and failed
// queues an empty item (speculative_dead): the persister's sequence of
// orders has no gap.
//
// The persister applies the queued write sets in order to the PM view and
// makes the order it has applied up to the floor (its record header's
// FLOOR): the speculative log's space below it is reused, and recovery
// ignores the records there. Recovery keeps the records above the floor
// whose dependencies are kept or below it, and replays them in order
// (runtime/pool/recovery.cpp).
//
// PTM_DURABILITY=buffered: the same queue, no record, no wait (the
// persister's prefix is the guarantee, as for the other libraries).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_SPECULATIVE_H
#define PTM_RUNTIME_POOL_SPECULATIVE_H

#include "runtime/base/tx_thread.h"
#include "runtime/pool/pool_view.h"
#include "runtime/pool/thread_slot.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace ptm {
namespace pool {

// (library_speculative, speculative_clock: durability.h)
// The open pool runs sp3's strict mode (speculative, not buffered).
extern bool speculative;

// Every order up to this one is in the PM view, and durable as the floor.
extern std::atomic<uint64_t> speculative_floor;

// Orders taken and not yet stable, one per slot (0: none).
struct alignas(64) PendingOrder {
  std::atomic<uint64_t> order{0};
};
extern PendingOrder pending_orders[kMaxSlots];
extern std::atomic<uint32_t> pending_high_water;

// Under the locks, before the orecs can show ORDER.
inline void speculative_taken(uint32_t slot, uint64_t order) {
  uint32_t h = pending_high_water.load(std::memory_order_relaxed);
  while (h <= slot && !pending_high_water.compare_exchange_weak(h, slot + 1))
    ;
  pending_orders[slot].order.store(order, std::memory_order_relaxed);
}

// The bytes of fresh pool blocks one record holds, logged whole (a chunk or
// word entry takes at most 4 times the bytes it holds: at most a quarter of
// the slot's SLOT_CAPACITY entries). A transaction that allocated more is
// BIG: no record, it waits for the persister (speculative_finish).
inline uint64_t logged_block_budget(uint64_t slot_capacity) {
  return slot_capacity * sizeof(LogEntry) / 16;
}

// Under the locks: S's write set written back in the DRAM copy and queued
// with ORDER; BIG (TX allocated blocks its record could not hold, below)
// noted for speculative_finish. A
// transaction that wrote nothing in the pool and depends on nothing pending
// (DEPS: how many it depends on) is stable at once: ORDER stops being pending
// before the orecs show it, and it writes no record. Any other writes one, even
// with no entry: a transaction that read its writes (in DRAM) may name it.
void speculative_queue(SlotHandle &s, TxThread &tx, uintptr_t skip_lo,
                       uintptr_t skip_hi, uint64_t order, bool big,
                       size_t deps);
// The attempt that took ORDER fails: an empty item, ORDER no longer pending.
void speculative_dead(SlotHandle &s, uint64_t order);

// The orecs released: the record durable (strict mode; with a large block,
// the floor past ORDER instead), DEPS (sorted, distinct) stable, ORDER no
// longer pending.
void speculative_finish(SlotHandle &s, const uint64_t *deps, size_t n);
// Returns once no other slot has one of DEPS (sorted) pending.
void speculative_wait(uint32_t self, const uint64_t *deps, size_t n);

// At thread exit: its queued write sets written (the persister frees its
// buffers after each round).
void speculative_thread_exit();

// open_pool (durability.cpp): the state of a new pool. (At close, once
// everything is applied, settle_at_close retires the speculative logs.)
void speculative_reset();

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_SPECULATIVE_H
