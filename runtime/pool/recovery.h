//===- recovery.h - make a pool consistent after a crash --------*- C++ -*-===//
//
// Runs when a pool is opened, before anything else touches it:
//   undo-active slot     restore its valid entries of the slot's generation,
//                        newest first (an entry is valid if its check hash
//                        matches: a torn last entry stops the scan), flush,
//                        fence, mark the slot idle (clwb, fence)
//   redo-committed slot  replay the entries of its REDO_COUNT records, slots
//                        in ascending commit order, flush, fence, mark idle
// A slot has three record headers (a log ring's parts, pool_format.h); a
// committed record at or below the replay floor (the largest FLOOR of the
// pool's record headers) has its data durable and is ignored; the floors go
// back to 0 once every record is idle.
// Entries are word entries (byte mask), chunk entries (G bytes written whole)
// or padding (pool_format.h).
// A speculative log (sp3, kRedoStream in record header 0) is a stream of
// self-validating records: those of the stream's epoch above the floor whose
// dependencies are kept (or at or below the floor) are kept, the others
// dropped; the kept ones are replayed with the committed records, all in
// commit order, then the slot goes idle (docs/pool.md "Speculative log").
// Record header 0's records may be in a log extension (SlotHeader::log_ext,
// docs/pool.md "Log extensions"); once every record is idle the links are
// cleared.
// Every step is idempotent and a slot becomes idle only after its effects
// are durable, so a crash during recovery is recovered again the same way.
// Entries whose address is not user data of the pool (root descriptor or
// heap) are never written (the naive libraries log volatile memory too).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_RECOVERY_H
#define PTM_RUNTIME_POOL_RECOVERY_H

#include "runtime/pool/pool_view.h"

#include <cstdint>
#include <vector>

namespace ptm {
namespace pool {

// What one record of a slot holds (scan_slot: read-only).
struct SlotScan {
  uint32_t index = 0;
  unsigned part = 0;  // record header (0: the slot's status word)
  uint64_t begin = 0; // its first record in the slot's entries
  // Where its records are: the slot's entries + BEGIN, or record header 0's
  // log extension (PoolView::record0); null for a record that is damaged.
  const LogEntry *log = nullptr;
  SlotState state = kIdle;
  uint64_t gen = 0;
  uint64_t order = 0;      // commit order (redo-committed)
  uint64_t entries = 0;    // valid entries to apply
  uint64_t records = 0;    // records they take (with padding)
  uint64_t declared = 0;   // redo_count (redo-committed): records
  uint64_t outside = 0;    // valid entries outside the pool's data (skipped)
  bool damaged = false;    // unrecoverable: a committed entry is invalid, or an
                           // unknown state
  bool torn = false;       // a sealed commit whose fence never completed: an
                           // entry is invalid (PROBLEM says which); discarded
  bool superseded = false; // committed at or below the replay floor: its
                           // data are durable, it is ignored (not scanned)
  uint64_t epoch = 0;      // speculative log (kRedoStream, part 0): the
                           // epoch of its stream (stream_records)
  char problem[160] = "";
};

// One valid record of a speculative log (kRedoStream): its body is the
// RECORDS entry records from BEGIN, all of generation ORDER.
struct StreamRecord {
  uint32_t index = 0;         // thread slot
  uint64_t begin = 0;         // first body record (after the head line)
  uint64_t records = 0;       // body records (R of its head)
  uint64_t order = 0;         // commit order
  std::vector<uint64_t> deps; // the orders it depends on (dep entries)
};

// The pool's replay floor: the largest FLOOR of its record headers
// (pool_format.h RecordHeader).
uint64_t replay_floor(const PoolView &view);

// Record PART of slot INDEX, FLOOR the pool's replay floor.
SlotScan scan_slot(const PoolView &view, uint32_t index, unsigned part = 0,
                   uint64_t floor = 0);

// The valid records of the speculative log of slot INDEX (header 0 in state
// kRedoStream, epoch != 0; else none) whose order is above FLOOR, in the
// order they appear in the slot. Read-only.
std::vector<StreamRecord> stream_records(const PoolView &view, uint32_t index,
                                         uint64_t floor = 0);

// Calls F(entry) for each valid entry of S (scan_slot), oldest first
// (padding records skipped).
template <class F>
void for_each_entry(const PoolView &, const SlotScan &s, F f) {
  const LogEntry *e = s.log;
  for (uint64_t i = 0; i < s.records; i += entry_records(e[i]))
    if (entry_kind(e[i]) != kPadEntry)
      f(e[i]);
}

// Bytes of user data the entry E writes (8 or G) at E.addr (8 for the
// entries that write nothing: pad, head and dep entries, whose addresses 0,
// 1 and 2 are never data of a pool).
inline uint64_t entry_span(const LogEntry &e) {
  return entry_kind(e) == kChunkEntry ? e.data : 8;
}

// The records that need recovery (state != idle), in slot and part order; a
// speculative log once (part 0: its other record headers are not used).
std::vector<SlotScan> pending_slots(const PoolView &view);

struct RecoveryStats {
  uint64_t undone = 0;     // undo-active slots rolled back
  uint64_t replayed = 0;   // redo-committed slots and kept speculative
                           // records written back
  uint64_t discarded = 0;  // torn sealed commits dropped (never acknowledged)
  uint64_t dropped = 0;    // speculative records whose dependency was lost
  uint64_t superseded = 0; // records (speculative ones too) at or below the
                           // replay floor ignored
  uint64_t entries = 0;    // entries applied
};

// Recovers every slot. MAX_ENTRIES (tests: a crash in the middle of
// recovery) stops after that many entries without marking the slot idle.
// With a speculative log in the pool no committed record goes idle before
// every kept record is replayed: then a replay floor at the largest order
// seen is made durable (a crash from there on leaves every record
// superseded) before the records go idle and the logs retire.
// 0, or -EIO after printing `ptm: error: <path>: ...` for a damaged slot
// (then nothing is written).
// At ptm_close, once no transaction runs and the log ring's records (or the
// persister's) are idle: crafty's logged undo logs and sp3's speculative
// logs (all superseded: every commit is durable) go idle, their epochs
// kept (a slot's next stream takes the next one), then every replay floor
// goes back to 0, as recovery would leave them at the next open.
void settle_at_close(const PoolView &view);

int recover(const PoolView &view, const char *path, RecoveryStats *stats,
            uint64_t max_entries = UINT64_MAX);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_RECOVERY_H
