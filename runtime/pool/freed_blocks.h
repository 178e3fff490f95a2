//===- freed_blocks.h - when a commit's frees may be reused -----*- C++ -*-===//
//
// The blocks a transaction frees go back to the allocator in two steps
// (palloc's deferred reuse): held while the transaction runs, then settled
// with a reuse stamp once it has committed or rolled back, reusable when
// every transaction that ran at that stamp has ended.
//
// Log ring (docs/algorithms.md "Freed blocks"): a commit's record outlives
// it, and one written before the free (when the block had its old contents)
// must not be replayed over what the block's next owner writes there
// unlogged. So a commit's frees are settled only once a durable replay floor
// has passed the commit. The floor follows the commits: a thread's own floor
// two commits on covers its commit before. Rather than making the floor
// durable at once (LogRing::make_room: 2 or 3 fences in the freeing
// transaction), the frees wait parked behind the commit's order and are
// settled at a later end of a transaction of the slot, once the floor has
// passed (no fence). make_room is still paid when the slot parks
// PersistentHeap::kMaxParked commits already, when an allocation waits for
// held memory, and when the slot is given up.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_FREED_BLOCKS_H
#define PTM_RUNTIME_POOL_FREED_BLOCKS_H

#include "runtime/pool/thread_slot.h"

namespace ptm {
namespace pool {

// At the end of S's transaction (leave_tx_heap_work, the heap present):
// the frees of the attempt (S.frees_held; S.free_order its commit, 0 for
// none or a rollback) settled or parked, and the parked ones the floor has
// passed settled. NOW: every one settled now (make_room if needed).
// Returns the tag (commit order) of the oldest frees still parked, 0 if none:
// the slot's end looks again once a durable floor has passed it
// (parked_frees_due).
uint64_t settle_freed_blocks(SlotHandle &s, bool now);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_FREED_BLOCKS_H
