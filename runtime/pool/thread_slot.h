//===- thread_slot.h - the calling thread's persistent slot -----*- C++ -*-===//
//
// Slots are leased (docs/pool.md "Deploying"): a thread claims a free slot
// of the open pool at its first transaction (thread_slot(); opening the
// default pool if none is open) and keeps it from one transaction to the
// next. A thread that finds every slot taken waits in line (slot_lease.cpp):
// a holder gives its slot back at the end of its transaction while someone
// waits, and a slot whose holder runs no transaction is taken from it (its
// EPOCH marked kSlotTaken: it claims another at its next transaction). The
// common case pays nothing for either: enter_tx compares the epoch as it
// always did, and a waiting thread asks the holders through HEAP_WORK,
// which leave_tx tests anyway. A slot's log belongs to at most one running
// transaction. The slot holds the status word and persistent log
// (pool_format.h); SlotHandle is the holder's volatile view of it.
//
// enter_tx/leave_tx bracket every transaction of a persistent library:
// ptm_close waits until no transaction of the process is inside the pool.
// leave_tx also does what the attempt left for after its end (HEAP_WORK):
// settling its frees for deferred reuse, and waiting, outside any attempt,
// until memory held back for reuse is free (runtime/stm/reuse_epoch.h).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_THREAD_SLOT_H
#define PTM_RUNTIME_POOL_THREAD_SLOT_H

#include "runtime/base/asymmetric_fence.h"
#include "runtime/pool/pool_format.h"
#include "runtime/pool/tx_presence.h"

#include <atomic>
#include <cstdint>

namespace ptm {
namespace pool {

constexpr uint32_t kMaxSlots = 256; // = palloc arenas

struct SlotHandle {
  SlotHeader *hdr;
  LogEntry *entries;      // of the current record (a log ring: of its part)
  uint64_t capacity;      // records from ENTRIES to the end of its part
  LogEntry *slot_entries; // the slot's first record
  uint64_t slot_capacity; // records of the whole slot
  uint64_t gen;           // generation of the current (or last) transaction
  uint64_t count;         // records of the current transaction
  uint64_t logged;        // entries of the current transaction (ptm_stats)
  // Pool epoch the slot belongs to (0: none; with kSlotTaken: taken from
  // this thread or given back). Other threads write it (atomically, under
  // pool_mutex) only to mark the slot taken (slot_lease.cpp).
  uint64_t epoch;
  uint32_t index;
  uint32_t presence; // the thread's presence flag (tx_presence.h; 0: none)
  // leave_tx has work: frees to settle, a reuse wait, or (set by a thread
  // waiting for a slot) a look at the line.
  bool heap_work;
  bool frees_held;     // the attempt released pool memory (heap_adapter.h)
  bool flushed_blocks; // its commit flushed pool blocks it allocated
  uint64_t reuse_wait; // an allocation waits for this reuse stamp (0: none)
  // Strict through the persister (durability.h awaited): the commit sequence
  // number the transaction's end waits for (0: none, it only read).
  uint64_t awaited_seq;
  // Log ring (runtime/persist/log_ring.h): the part the next record goes to;
  // the last committed record (its data written back, not yet flushed while
  // LAST_UNFLUSHED); the largest replay floor this thread has written
  // durably; the order of a last record that took the whole slot
  // (LogRing::spill; 0: none).
  uint8_t part;
  bool last_unflushed;
  uint8_t last_part;
  uint64_t floor;
  uint64_t wide_order;
  // Log ring: the commit that freed pool memory; its blocks are settled once
  // a durable floor passes it (leave_tx_heap_work; 0: none). PARKED_TAG: the
  // oldest commit whose frees wait parked for that (freed_blocks.h; 0:
  // none): leave_tx looks at them only once a floor has passed it.
  uint64_t free_order;
  uint64_t parked_tag;
  // Log staging (runtime/persist/log_stage.h): the volatile mirror of the
  // slot's entries in which a redo library builds its records (ENTRIES
  // points into it; nullptr: into the slot itself), and the records of the
  // last committed one (log ring: its data lines, flushed by the next commit,
  // are listed there).
  LogEntry *stage;
  uint64_t last_count;
  // Log extension (runtime/persist/log_extension.h): the block the running
  // transaction's record grew into, and its bytes (nullptr: the record is in
  // the slot).
  LogExtensionHeader *ext;
  uint64_t ext_bytes;
};

extern __thread SlotHandle tls_slot;
// In a handle's EPOCH: its slot was taken or given back (never a pool
// epoch, so enter_tx's compare fails and the thread claims again).
constexpr uint64_t kSlotTaken = 1ull << 63;
// Epoch of the open pool (0: no pool open); a new value at every open.
extern std::atomic<uint64_t> pool_epoch;

// Claims a slot in the open pool (opening the default pool first if needed),
// waiting in line while every slot is taken.
void claim_slot() __attribute__((noinline));
// Threads waiting for a slot (they set the holders' HEAP_WORK): a holder
// gives its slot back at leave_tx_heap_work.
extern std::atomic<uint32_t> slot_waiters;
void give_slot_back(SlotHandle &s) __attribute__((noinline, cold));

__attribute__((always_inline)) inline SlotHandle &thread_slot() {
  // Epoch 0 is "no slot" (and, in pool_epoch, "no pool open": the first
  // transaction of a program that opened none opens the default pool).
  uint64_t e = __atomic_load_n(&tls_slot.epoch, __ATOMIC_RELAXED);
  if (__builtin_expect(
          e == 0 || e != pool_epoch.load(std::memory_order_relaxed), 0))
    claim_slot();
  return tls_slot;
}

// The thread's slot, marked as running a transaction.
__attribute__((always_inline)) inline SlotHandle &enter_tx() {
  for (;;) {
    SlotHandle &s = thread_slot();
    // (Dekker with close_pool: store, StoreLoad fence, load; the fence is
    // asymmetric, close_pool's fence_heavy pays for it)
    std::atomic<uint8_t> &inside = presence[s.presence].inside;
    inside.store(kInside, std::memory_order_relaxed);
    fence_light();
    // (Dekker with a thread taking the slot, too: it marks EPOCH, fences,
    // then reads the flag; slot_lease.cpp)
    if (__builtin_expect(pool_epoch.load(std::memory_order_relaxed) ==
                             __atomic_load_n(&s.epoch, __ATOMIC_RELAXED),
                         1))
      return s;
    // Closed, or the slot taken: thread_slot() claims one again.
    inside.store(0, std::memory_order_release);
  }
}

// Strict durability through the persister (durability.h awaited), after a
// transaction's commit, outside any lock: returns once what it wrote (its
// AWAITED_SEQ) or, if it only read, every commit so far is durable.
void await_commit() __attribute__((noinline, cold));

// leave_tx with HEAP_WORK set, or parked frees due.
void leave_tx_heap_work(SlotHandle &s) __attribute__((noinline, cold));

// The largest replay floor known to be durable (the log ring's,
// runtime/persist/log_ring.h: raised by make_room; the fast path reads the
// thread's own, SlotHandle::floor).
inline std::atomic<uint64_t> durable_replay_floor{0};

// The largest durable floor S knows of (its own, or the largest known):
// recovery ignores every record at or below it, so their data are durable.
__attribute__((always_inline)) inline uint64_t
passed_floor(const SlotHandle &s) {
  uint64_t d = durable_replay_floor.load(std::memory_order_relaxed);
  return s.floor > d ? s.floor : d;
}

// ORDER is at or below a durable floor: its record and every earlier one
// is ignored by recovery. (The thread's own floor first: it mostly answers,
// and the shared one is then not loaded.)
__attribute__((always_inline)) inline bool superseded(const SlotHandle &s,
                                                      uint64_t order) {
  return order <= s.floor ||
         order <= durable_replay_floor.load(std::memory_order_relaxed);
}

// S's parked frees can be settled: a durable floor has passed the oldest of
// them (freed_blocks.cpp's test).
__attribute__((always_inline)) inline bool
parked_frees_due(const SlotHandle &s) {
  return s.parked_tag != 0 && superseded(s, s.parked_tag);
}

__attribute__((always_inline)) inline void leave_tx(SlotHandle &s) {
  if (__builtin_expect(s.heap_work, 0) || parked_frees_due(s))
    return leave_tx_heap_work(s);
  presence[s.presence].inside.store(0, std::memory_order_release);
}

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_THREAD_SLOT_H
