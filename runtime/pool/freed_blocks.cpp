//===- freed_blocks.cpp - when a commit's frees may be reused -------------===//

#include "runtime/pool/freed_blocks.h"

#include "runtime/persist/log_ring.h"
#include "runtime/persist/persist.h"
#include "runtime/pool/heap_adapter.h"
#include "runtime/stm/reuse_epoch.h"

#include <algorithm>

// The optimization's switch (CMake PTM_OPT_PARKED_FREES, libs/
// persistent_options.h's others): off, every commit's frees are settled at
// its end, make_room first.
#ifndef PTM_OPT_PARKED_FREES
#define PTM_OPT_PARKED_FREES 1
#endif

namespace ptm {
namespace pool {

uint64_t settle_freed_blocks(SlotHandle &s, bool now) {
  HeapImpl *heap = pool_heap;
  unsigned arena = heap_arena(s.index);
  uint64_t order = s.free_order; // (0: no commit freed, or not a log ring)
  s.free_order = 0;
  now |= !PTM_OPT_PARKED_FREES;
  bool fresh = s.frees_held;
  // Every order up to PASSED has its data durable behind a durable floor.
  uint64_t passed = passed_floor(s);
  if (persist::seeded_early_reuse())
    passed = UINT64_MAX; // (the crash simulator's seeded bug)
  if (fresh && order > passed && !now) {
    if (heap->parked(arena) < PersistentHeap::kMaxParked) {
      heap->park_frees(arena, order);
      fresh = false;
    } else {
      now = true;
    }
  }
  if (now) {
    uint64_t upto = std::max(fresh ? order : 0, heap->newest_parked_tag(arena));
    if (upto > passed) {
      LogRing::make_room(s, upto);
      passed = upto;
    }
  }
  uint64_t stamp = 0; // (taken once, after the commit point)
  if (heap->parked(arena) != 0 && heap->oldest_parked_tag(arena) <= passed) {
    stamp = ReuseEpoch::stamp();
    heap->settle_parked(arena, passed, stamp);
  }
  if (fresh)
    heap->settle_frees(arena, stamp ? stamp : ReuseEpoch::stamp());
  return heap->oldest_parked_tag(arena);
}

} // namespace pool
} // namespace ptm
