//===- log_stage.h - redo records built in DRAM, streamed -------*- C++ -*-===//
//
// Log staging (ours; docs/algorithms.md "Log staging", PTM_OPT_LOG_STAGE):
// a redo library builds its records in a volatile mirror of its slot's
// entries (SlotHandle::stage, same layout and capacity) instead of in the
// slot, and its commit streams each record line into the slot with
// non-temporal stores (persist::stream_line) before the same fence that
// used to follow their clwb. What it saves, on CPUs whose clwb evicts the
// line it writes back:
//
//   - the transaction's stores into log lines that the clwb of an earlier
//     record evicted (one read for ownership per line, which a store buffer
//     full of them makes the next locked instruction wait for);
//   - the write-back reading the entries it just flushed (a miss per line),
//     and the log ring's flush of the last record's data lines reading that
//     record's entries (it reads the stage, where they still are).
//
// The slot's contents are the same as without staging, line for line, once
// the commit's fence is done (a record's last line may carry a stale record
// of the stage past the record's count, which recovery never reads); before
// it, the slot holds only earlier records. Recovery, the other threads'
// make_room and ptm_close read the slot, never a stage. Clwb counts are per
// line (a streamed line counts as one).
//
// Only the redo side stages (PersistentRedoLog::begin/begin_ring with
// STAGE): an undo entry must be durable before its write, so it is written
// in the slot. A stage is allocated at a thread's first staged transaction
// after it claims a slot and freed when it releases or re-claims one.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSIST_LOG_STAGE_H
#define PTM_RUNTIME_PERSIST_LOG_STAGE_H

#include "runtime/persist/persist.h"
#include "runtime/pool/thread_slot.h"

#include <cstdint>

namespace ptm {

struct LogStage {
  // The slot's first record as this thread builds it.
  __attribute__((always_inline)) static pool::LogEntry *
  base(const pool::SlotHandle &s) {
    return s.stage ? s.stage : s.slot_entries;
  }

  // From the next record on, S builds its records in a stage (no memory for
  // one: in the slot, as before). ENTRIES keeps its record position.
  static void attach(pool::SlotHandle &s) __attribute__((noinline, cold));
  // S builds in its slot again; the stage is freed.
  static void release(pool::SlotHandle &s);

  // The current record's first N records, written into the slot's copy of
  // them (whole lines: a record begins on a line).
  static void stream(pool::SlotHandle &s, uint64_t n) {
    pool::LogEntry *to = s.slot_entries + (s.entries - s.stage);
    for (uint64_t i = 0; i < n; i += 2)
      persist::stream_line(to + i, s.entries + i);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_PERSIST_LOG_STAGE_H
