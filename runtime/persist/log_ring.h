//===- log_ring.h - a slot's log as a ring of three records -----*- C++ -*-===//
//
// The log ring of the gp_/ip_ lazy libraries (docs/algorithms.md "Log
// ring"): one store fence per durable commit. A thread's records go to the
// three parts of its slot in turn, so the record of its last commit stays
// while that commit's data lines are still unflushed: they are written back
// (clwb) by the thread's next commit, before its one fence, together with
// that commit's own entries and record header.
//
// A record may be overwritten only once no recovery can need it, i.e. once
// its commit order is at or below a durable replay floor: every transaction
// ordered at or below the floor has its data durable, and recovery ignores
// the committed records there (the largest FLOOR of the pool's record
// headers, pool_format.h). Each commit writes into its header the floor it
// can prove, ReplayFloor::compute; the thread's data are durable up to the
// commit before its last one, so two commits later the floor covers the
// part the next record reuses. A thread that falls behind (an idle thread
// holding the floor back, a transaction larger than a part) takes the slow
// path, LogRing::make_room: it writes back the lines of the idle threads'
// last commits itself (clwb works on any line, its own fence completes
// them) and writes the floor it then proves.
//
// ReplayFloor is the volatile side (one cache line per slot):
//   unflushed    the lowest commit order of the slot's committed records
//                whose data may not be durable (kNone: none)
//   committing   set (seq_cst) before a writer takes its commit order,
//                cleared once its record is durable and written back: an
//                order taken after a floor was computed is above it, one
//                taken before is seen
//   helped       the slot's records up to this order were made durable by
//                another thread (make_room)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSIST_LOG_RING_H
#define PTM_RUNTIME_PERSIST_LOG_RING_H

#include "runtime/persist/data_flush.h"
#include "runtime/persist/log_stage.h"
#include "runtime/persist/persist.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/pool_format.h"
#include "runtime/pool/pool_view.h"
#include "runtime/pool/thread_slot.h"

#include <atomic>
#include <cstdint>

namespace ptm {
// ReplayFloor's state of one slot (its own cache line).
struct alignas(64) FloorSlot {
  std::atomic<uint64_t> unflushed{~uint64_t(0)};
  std::atomic<uint64_t> helped{0};
  std::atomic<uint8_t> committing{0};
};

struct ReplayFloor {
  static constexpr uint64_t kNone = ~uint64_t(0);
  using Slot = FloorSlot;
  static inline Slot slots[pool::kMaxSlots];
  static inline std::atomic<uint32_t> high_water{0};

  // A new pool: nothing committed.
  static void reset();

  // Before a writer takes its commit order. ORDER_RMW: the caller takes
  // it next by a seq_cst read-modify-write of pool::next_commit_order's
  // counter, from which every floor is computed (compute's ORDER, or an
  // order below it, was taken there after this one). That RMW then makes
  // the flag visible to every thread whose order comes later, and the
  // store needs no barrier of its own: one locked instruction per commit
  // instead of two.
  static void announce(uint32_t slot, bool order_rmw = false) {
    uint32_t h = high_water.load(std::memory_order_relaxed);
    while (h <= slot && !high_water.compare_exchange_weak(h, slot + 1))
      ;
    if (order_rmw)
      slots[slot].committing.store(1, std::memory_order_release);
    else
      slots[slot].committing.store(1, std::memory_order_seq_cst);
  }
  // The attempt that announced ends without a record.
  static void withdraw(uint32_t slot) {
    slots[slot].committing.store(0, std::memory_order_release);
  }
  // Its record (order ORDER) is durable, and with it every earlier one of
  // the slot's data, and its write-back is done (a helper that flushed its
  // lines before the write-back would flush the old data).
  static void published(uint32_t slot, uint64_t order) {
    slots[slot].unflushed.store(order, std::memory_order_release);
    slots[slot].committing.store(0, std::memory_order_release);
  }

  // The largest order F < ORDER such that every transaction ordered <= F
  // has its data durable, as far as the volatile state proves it, for the
  // thread of SELF committing ORDER (or, not committing, knowing that ORDER
  // - 1 was taken), never below AT_LEAST.
  static uint64_t compute(uint32_t self, uint64_t order, uint64_t at_least);
  // A slot (other than SELF) holding compute()'s result below TARGET, with
  // its unflushed order (ORDER = kNone: none found).
  static uint32_t blocker(uint32_t self, uint64_t target, uint64_t &order);
};

struct LogRing {
  // The ring's part P of slot S: where its records begin and how many fit.
  __attribute__((always_inline)) static void select_part(pool::SlotHandle &s,
                                                         unsigned p) {
    uint64_t b = pool::ring_part_begin(s.slot_capacity, p);
    s.part = uint8_t(p);
    s.entries = LogStage::base(s) + b;
    s.capacity = pool::ring_part_begin(s.slot_capacity, p + 1) - b;
  }

  // Opens the running transaction's record (begun with capacity 0,
  // PersistentRedoLog::begin_ring) at its first entry: a new generation, in
  // the slot's next part (buffered durability: the whole slot, no ring;
  // nothing persistent; under strict durability through the persister the
  // thread is marked as writing, for the persister's group commit).
  static void open(pool::SlotHandle &s) {
    s.gen += pool::kGenStride; // (pool_format.h)
    if (__builtin_expect(pool::buffered, 0)) {
      s.entries = LogStage::base(s);
      s.capacity = s.slot_capacity;
      if (pool::awaited)
        pool::presence[s.presence].inside.store(pool::kWriting,
                                                std::memory_order_relaxed);
    } else {
      begin(s);
    }
  }

  // A new record in S's next part: what that part holds must be at or below
  // a durable floor (else make_room), and so must a last record that took
  // the whole slot (it covers every part).
  __attribute__((always_inline)) static void begin(pool::SlotHandle &s) {
    if (__builtin_expect(s.wide_order != 0, 0))
      supersede_wide(s);
    const pool::RecordHeader &h = pool::record_header(*s.hdr, s.part);
    uint64_t status = __atomic_load_n(&h.status, __ATOMIC_ACQUIRE);
    if (__builtin_expect(pool::is_redo_state(pool::status_state(status)), 1)) {
      uint64_t o = h.commit_order;
      if (__builtin_expect(!pool::superseded(s, o), 0))
        make_room(s, o);
    }
    select_part(s, s.part);
  }

  // clwb of the lines the N records at E write, each once (LineFlusher):
  // the pool's data only (what recovery restores; the rest, stack or DRAM,
  // may even be unmapped by now). Each entry is read once: another thread's
  // may change under us.
  static void flush_entries(const pool::LogEntry *e, uint64_t n) {
    const pool::PoolView &v = pool::open_view;
    persist::LineFlusher lines;
    for (uint64_t i = 0; i < n;) {
      pool::LogEntry x = e[i];
      pool::EntryKind k = pool::entry_kind(x);
      if (k != pool::kPadEntry &&
          v.is_data(x.addr, k == pool::kChunkEntry ? x.data : 8))
        lines.flush(reinterpret_cast<const void *>(x.addr));
      i += k == pool::kChunkEntry ? pool::chunk_records(x.data) : 1;
    }
  }

  // clwb of the data lines of S's last committed record, if not done (its
  // entries as this thread wrote them: in its stage if it has one), all of
  // them. (A commit flushes them with PersistentRedoLog::flush_last_listed,
  // which leaves out those the committing record holds again whole.)
  static void flush_last(pool::SlotHandle &s) {
    if (!s.last_unflushed)
      return;
    s.last_unflushed = false;
    flush_entries(last_record(s), s.last_count);
  }
  // The entries of S's last committed record (in its stage if it has one).
  static const pool::LogEntry *last_record(const pool::SlotHandle &s) {
    return LogStage::base(s) +
           pool::ring_part_begin(s.slot_capacity, s.last_part);
  }

  // Slow path of begin: makes the floor durable at TARGET or above (see the
  // file comment). Outside every lock of the algorithm.
  static void make_room(pool::SlotHandle &s, uint64_t target)
      __attribute__((noinline, cold));
  static void supersede_wide(pool::SlotHandle &s)
      __attribute__((noinline, cold));
  // A record larger than its part: moves the COUNT records written so far to
  // the slot's first record and gives it the whole slot (every record of the
  // slot made supersedable first).
  static void spill(pool::SlotHandle &s) __attribute__((noinline, cold));
  // The thread leaves the pool (exit): its last data made durable.
  static void drain(pool::SlotHandle &s);
  // ptm_close, every transaction out of the pool: all data durable, every
  // committed record idle (recovery sets the floors to 0 at the next open).
  static void close_all();
};

} // namespace ptm

#endif // PTM_RUNTIME_PERSIST_LOG_RING_H
