//===- deferred_reuse.cpp - freed memory held back until readers leave ----===//
//
// Deferred reuse per chunk (docs/palloc.md "Deferred reuse", reuse_epoch.h):
// a free is held until its transaction settles it with a stamp, and the
// chunk's freed memory is handed out again once the stamp has passed.
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/heap_impl.h"

#include <atomic>
#include <vector>

namespace ptm {

using namespace palloc;

void PersistentHeap::Impl::hold(uint32_t ch, unsigned arena) {
  if (!gate.passed)
    return;
  hints[ch].unsettled.fetch_add(1, std::memory_order_relaxed);
  arenas[arena].unsettled.push_back(ch);
}

void PersistentHeap::Impl::settle(unsigned arena, uint64_t stamp) {
  settle_chunks(arenas[arena].unsettled, stamp);
}

void PersistentHeap::Impl::settle_chunks(std::vector<uint32_t> &v,
                                         uint64_t stamp) {
  for (uint32_t ch : v) {
    ChunkHint &h = hints[ch];
    uint64_t cur = h.freed_at.load(std::memory_order_relaxed);
    while (cur < stamp && !h.freed_at.compare_exchange_weak(
                              cur, stamp, std::memory_order_release))
      ;
    h.unsettled.fetch_sub(1, std::memory_order_release);
  }
  v.clear();
}

// (the caller checked that a batch is free: parked_count < kMaxParked)
void PersistentHeap::Impl::park(unsigned arena, uint64_t tag) {
  Arena &a = arenas[arena];
  if (a.unsettled.empty())
    return;
  unsigned i = (a.parked_first + a.parked_count) % kMaxParked;
  std::swap(a.parked[i], a.unsettled); // (its chunks stay unsettled)
  a.unsettled.clear();
  a.parked_tag[i] = tag;
  ++a.parked_count;
}

void PersistentHeap::Impl::settle_parked(unsigned arena, uint64_t upto,
                                         uint64_t stamp) {
  Arena &a = arenas[arena];
  while (a.parked_count != 0 && a.parked_tag[a.parked_first] <= upto) {
    settle_chunks(a.parked[a.parked_first], stamp);
    a.parked_first = (a.parked_first + 1) % kMaxParked;
    --a.parked_count;
  }
}

bool PersistentHeap::Impl::reusable(uint32_t ch, Held &held) {
  if (!gate.passed)
    return true;
  ChunkHint &h = hints[ch];
  if (h.unsettled.load(std::memory_order_acquire) != 0) {
    held.note(gate.now()); // its stamp will be at least this
    return false;
  }
  uint64_t s = h.freed_at.load(std::memory_order_acquire);
  if (s == 0)
    return true;
  if (gate.passed(s)) {
    h.freed_at.compare_exchange_strong(s, 0, std::memory_order_relaxed);
    return true;
  }
  held.note(s);
  return false;
}

} // namespace ptm
