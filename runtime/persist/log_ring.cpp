//===- log_ring.cpp - the log ring's floor and its slow paths -------------===//

#include "runtime/persist/log_ring.h"

#include "runtime/base/atomic_max.h"
#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/pool/persistent_pool.h"

#include <cstring>
#include <sched.h>

namespace ptm {

namespace {

// clwb of the data lines (user data of the pool only: the entries may be
// changing under us when the record is being superseded by its owner) of
// the record of PART in slot INDEX if it is committed with ORDER.
void flush_record_of(uint32_t index, unsigned part, uint64_t order) {
  const pool::PoolView &v = pool::open_view;
  const pool::RecordHeader &h = pool::record_header(*v.slot(index), part);
  uint64_t status = __atomic_load_n(&h.status, __ATOMIC_ACQUIRE);
  if (!pool::is_redo_state(pool::status_state(status)) ||
      __atomic_load_n(&h.commit_order, __ATOMIC_RELAXED) != order)
    return;
  uint64_t cap = v.capacity(), b = pool::ring_part_begin(cap, part);
  uint64_t n = __atomic_load_n(&h.redo_count, __ATOMIC_RELAXED);
  if (n > cap - b)
    n = cap - b;
  LogRing::flush_entries(v.entries(index) + b, n);
}

// The records of slot INDEX whose data may not be durable: those ordered
// ORDER (its last; the earlier ones were flushed before its fence).
void flush_slot_last(uint32_t index, uint64_t order) {
  for (unsigned p = 0; p < pool::kRingParts; ++p)
    flush_record_of(index, p, order);
}

// What slot I holds the floor at (kNone: nothing).
uint64_t bound_of(uint32_t i, uint64_t at_least) {
  ReplayFloor::Slot &t = ReplayFloor::slots[i];
  bool committing = t.committing.load(std::memory_order_seq_cst);
  uint64_t v = t.unflushed.load(std::memory_order_acquire);
  if (committing) // its order is not known: above V if V is set
    return v == ReplayFloor::kNone ? at_least : v - 1;
  if (v == ReplayFloor::kNone || t.helped.load(std::memory_order_acquire) >= v)
    return ReplayFloor::kNone;
  return v - 1;
}

} // namespace

void ReplayFloor::reset() {
  for (Slot &t : slots) {
    t.unflushed.store(kNone, std::memory_order_relaxed);
    t.helped.store(0, std::memory_order_relaxed);
    t.committing.store(0, std::memory_order_relaxed);
  }
  high_water.store(0, std::memory_order_relaxed);
  pool::durable_replay_floor.store(0, std::memory_order_seq_cst);
}

uint64_t ReplayFloor::compute(uint32_t self, uint64_t order,
                              uint64_t at_least) {
  uint64_t own = slots[self].unflushed.load(std::memory_order_relaxed);
  uint64_t x = (own < order ? own : order) - 1;
  uint32_t n = high_water.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    if (i == self)
      continue;
    uint64_t b = bound_of(i, at_least);
    if (b < x)
      x = b;
  }
  return x > at_least ? x : at_least;
}

uint32_t ReplayFloor::blocker(uint32_t self, uint64_t target, uint64_t &order) {
  uint32_t n = high_water.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < n; ++i) {
    if (i == self)
      continue;
    uint64_t b = bound_of(i, 0);
    if (b < target) {
      order = slots[i].unflushed.load(std::memory_order_acquire);
      return i;
    }
  }
  order = kNone;
  return 0;
}

void LogRing::make_room(pool::SlotHandle &s, uint64_t target) {
  // Our own data first: after this fence nothing of ours is unflushed.
  flush_last(s);
  persist::sfence();
  ReplayFloor::slots[s.index].unflushed.store(ReplayFloor::kNone,
                                              std::memory_order_release);
  uint64_t floor;
  for (unsigned spins = 0;;) {
    floor = ReplayFloor::compute(s.index, target + 1, s.floor);
    if (floor >= target)
      break;
    uint64_t order;
    uint32_t i = ReplayFloor::blocker(s.index, target, order);
    if (order == ReplayFloor::kNone ||
        ReplayFloor::slots[i].committing.load(std::memory_order_acquire)) {
      // Committing: its record is durable in a moment.
      if (++spins > 64)
        sched_yield();
      continue;
    }
    // Outside a commit, its last data unflushed: write them back ourselves.
    flush_slot_last(i, order);
    persist::sfence();
    raise_to(ReplayFloor::slots[i].helped, order);
  }
  // The floor durable: in the header of the part to be reused (its record
  // is at or below it, hence ignored), the largest floor of this slot.
  pool::RecordHeader &h = pool::record_header(*s.hdr, s.part);
  __atomic_store_n(&h.floor, floor, __ATOMIC_RELEASE);
  persist::clwb(&h);
  persist::sfence();
  s.floor = floor;
  raise_to(pool::durable_replay_floor, floor);
}

void LogRing::supersede_wide(pool::SlotHandle &s) {
  uint64_t o = s.wide_order;
  s.wide_order = 0;
  if (!pool::superseded(s, o))
    make_room(s, o);
}

void LogRing::spill(pool::SlotHandle &s) {
  // Every other record of the slot at or below a durable floor.
  uint64_t target = 0;
  for (unsigned p = 0; p < pool::kRingParts; ++p) {
    const pool::RecordHeader &h = pool::record_header(*s.hdr, p);
    if (p != s.part && pool::is_redo_state(pool::status_state(h.status)) &&
        h.commit_order > target)
      target = h.commit_order;
  }
  if (!pool::superseded(s, target))
    make_room(s, target);
  pool::LogEntry *first = LogStage::base(s);
  if (s.entries != first)
    memmove(first, s.entries, s.count * sizeof(pool::LogEntry));
  s.part = 0;
  s.entries = first;
  s.capacity = s.slot_capacity;
}

void LogRing::drain(pool::SlotHandle &s) {
  if (!s.last_unflushed)
    return;
  flush_last(s);
  persist::sfence();
  ReplayFloor::slots[s.index].unflushed.store(ReplayFloor::kNone,
                                              std::memory_order_release);
}

void LogRing::close_all() {
  const pool::PoolView &v = pool::open_view;
  uint32_t n = v.header.slot_count;
  bool any = false;
  for (uint32_t i = 0; i < n; ++i)
    for (unsigned p = 0; p < pool::kRingParts; ++p) {
      const pool::RecordHeader &h = pool::record_header(*v.slot(i), p);
      if (pool::is_redo_state(pool::status_state(h.status))) {
        flush_record_of(i, p, h.commit_order);
        any = true;
      }
    }
  if (!any)
    return;
  persist::sfence();
  // (The floors stay: recovery sets them to 0 when the pool is next opened,
  // after its records are idle.)
  for (uint32_t i = 0; i < n; ++i)
    for (unsigned p = 0; p < pool::kRingParts; ++p) {
      pool::RecordHeader &h = pool::record_header(*v.slot(i), p);
      if (!pool::is_redo_state(pool::status_state(h.status)))
        continue;
      __atomic_store_n(
          &h.status, pool::slot_status(pool::kIdle, pool::status_gen(h.status)),
          __ATOMIC_RELEASE);
      persist::clwb(&h);
    }
  persist::sfence();
}

} // namespace ptm
