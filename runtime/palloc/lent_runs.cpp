//===- lent_runs.cpp - runs of free chunks lent out unallocated ----------===//
//
// A log extension (runtime/persist/log_extension.h) borrows a run of free
// chunks without allocating it: the chunks leave the free set and are
// marked reserved, as a transaction's claim would mark them, but no
// metadata word is written, so the heap's persistent state still says free
// and a crash gives the run back by itself. Only chunks whose committed
// state is free (state word 0, cover bit clear) and whose freed memory may
// be reused (deferred reuse: no reader of it can still be running) are
// lent. free_run_in_copy finds a run free in another copy of the region
// (buffered durability's PM view, which its persister alone writes).
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/heap_impl.h"

#include <mutex>

namespace ptm {

using namespace palloc;

void *PersistentHeap::lend_run(size_t bytes, size_t *lent) {
  if (!impl_ || bytes == 0)
    return nullptr;
  Impl &m = *impl_;
  uint64_t n = (bytes + kChunkSize - 1) >> kChunkShift;
  if (n > m.nchunks)
    return nullptr;
  Impl::Held held;
  for (uint32_t from = 0;;) {
    uint32_t ch;
    {
      std::lock_guard<std::mutex> g(m.global);
      ch = m.find_run(n, from);
      if (ch != kNone)
        for (uint64_t i = 0; i < n; ++i)
          m.reserve_locked(ch + uint32_t(i));
    }
    if (ch == kNone)
      return nullptr;
    // Committed state free (plain loads: a transaction's claim of a chunk
    // reserves it, so a free state word here is nobody's).
    uint32_t bad = kNone;
    for (uint64_t i = 0; i < n && bad == kNone; ++i) {
      uint32_t c = ch + uint32_t(i);
      uint64_t st = __atomic_load_n(m.state(c), __ATOMIC_ACQUIRE);
      if (st != 0 ||
          m.covered(c, __atomic_load_n(m.cover_word(c), __ATOMIC_ACQUIRE)) ||
          !m.reusable(c, held))
        bad = c;
    }
    if (bad == kNone) {
      *lent = size_t(n) << kChunkShift;
      return m.chunk_addr(ch);
    }
    for (uint64_t i = 0; i < n; ++i) {
      uint32_t c = ch + uint32_t(i);
      bool free =
          __atomic_load_n(m.state(c), __ATOMIC_ACQUIRE) == 0 &&
          !m.covered(c, __atomic_load_n(m.cover_word(c), __ATOMIC_ACQUIRE));
      m.unreserve(c, free);
    }
    from = bad + 1; // no run through that chunk for now
  }
}

void *PersistentHeap::free_run_in_copy(intptr_t delta, size_t bytes,
                                       const std::vector<uint64_t> &skip,
                                       size_t *got) const {
  if (!impl_ || bytes == 0)
    return nullptr;
  const Impl &m = *impl_;
  uint64_t n = (bytes + kChunkSize - 1) >> kChunkShift;
  auto at = [delta](const uint64_t *p) {
    return __atomic_load_n(reinterpret_cast<const uint64_t *>(
                               reinterpret_cast<intptr_t>(p) + delta),
                           __ATOMIC_ACQUIRE);
  };
  uint64_t run = 0;
  for (uint32_t c = 0; c < m.nchunks; ++c) {
    bool skipped = c / 64 < skip.size() && (skip[c / 64] >> (c % 64) & 1);
    if (skipped || at(m.state(c)) != 0 || m.covered(c, at(m.cover_word(c)))) {
      run = 0;
      continue;
    }
    if (++run == n) {
      *got = size_t(n) << kChunkShift;
      return m.chunk_addr(c + 1 - uint32_t(n)) + delta;
    }
  }
  return nullptr;
}

void PersistentHeap::mark_chunks(std::vector<uint64_t> &skip, const void *p,
                                 size_t n) const {
  if (!impl_ || n == 0)
    return;
  const Impl &m = *impl_;
  auto lo = reinterpret_cast<uintptr_t>(p);
  auto data = reinterpret_cast<uintptr_t>(m.data);
  uintptr_t end = data + (uintptr_t(m.nchunks) << kChunkShift);
  if (lo + n <= data || lo >= end)
    return;
  uintptr_t from = lo > data ? lo : data, to = lo + n < end ? lo + n : end;
  skip.resize((m.nchunks + 63) / 64);
  for (uintptr_t c = (from - data) >> kChunkShift;
       c <= (to - 1 - data) >> kChunkShift; ++c)
    skip[c / 64] |= uint64_t(1) << (c % 64);
}

void PersistentHeap::return_run(void *p, size_t bytes) {
  if (!impl_ || !p)
    return;
  Impl &m = *impl_;
  auto first = uint32_t(size_t(static_cast<char *>(p) - m.data) >> kChunkShift);
  for (uint64_t i = 0; i < (bytes >> kChunkShift); ++i)
    m.unreserve(first + uint32_t(i), true);
}

} // namespace ptm
