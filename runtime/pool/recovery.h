//===- recovery.h - make a pool consistent after a crash --------*- C++ -*-===//
//
// Runs when a pool is opened, before anything else touches it:
//   undo-active slot     restore its valid entries of the slot's generation,
//                        newest first (an entry is valid if its check hash
//                        matches: a torn last entry stops the scan), flush,
//                        fence, mark the slot idle (clwb, fence)
//   redo-committed slot  replay its REDO_COUNT entries, slots in ascending
//                        commit order, flush, fence, mark idle
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

// What one slot holds (scan_slot: read-only).
struct SlotScan {
  uint32_t index = 0;
  SlotState state = kIdle;
  uint64_t gen = 0;
  uint64_t order = 0;    // commit order (redo-committed)
  uint64_t entries = 0;  // valid entries to apply
  uint64_t declared = 0; // redo_count (redo-committed)
  uint64_t outside = 0;  // valid entries outside the pool's data (skipped)
  bool damaged = false;  // unrecoverable: a committed entry is invalid, or an
                         // unknown state
  char problem[160] = "";
};

SlotScan scan_slot(const PoolView &view, uint32_t index);

// The slots that need recovery (state != idle), in slot order.
std::vector<SlotScan> pending_slots(const PoolView &view);

struct RecoveryStats {
  uint64_t undone = 0;   // undo-active slots rolled back
  uint64_t replayed = 0; // redo-committed slots written back
  uint64_t entries = 0;  // entries applied
};

// Recovers every slot. MAX_ENTRIES (tests: a crash in the middle of
// recovery) stops after that many entries without marking the slot idle.
// 0, or -EIO after printing `ptm: error: <path>: ...` for a damaged slot
// (then nothing is written).
int recover(const PoolView &view, const char *path, RecoveryStats *stats,
            uint64_t max_entries = UINT64_MAX);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_RECOVERY_H
