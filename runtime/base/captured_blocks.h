//===- captured_blocks.h - the blocks the attempt allocated -----*- C++ -*-===//
//
// Captured memory (the paper's last-allocation tracking, IV-A, generalised
// to every allocation of the attempt): a block the running attempt
// allocated is unreachable by any other transaction until the attempt
// commits (the pointer that publishes it is itself a transactional write),
// and an abort frees it. So its accesses need neither a log entry nor a
// lock or an orec: they are plain loads and stores, and a persistent
// library makes the block durable once at commit (flush_allocs, or the log
// ring's record). TxThread::last_alloc keeps the newest block for the
// barriers' inline test; CapturedBlocks lists them all, sorted by address
// (sorted, but for a short tail of the newest) and disjoint, for the test
// the barriers make off their fast paths (and inline only while the attempt
// has more than one), a binary search.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_CAPTURED_BLOCKS_H
#define PTM_RUNTIME_CAPTURED_BLOCKS_H

#include "runtime/base/grow_buffer.h"
#include "runtime/base/undo_log.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ptm {

struct CapturedBlocks {
  // blocks[0, sorted) are sorted by address; the rest, at most kTail, are
  // the newest in the order they came (a search scans them). A full tail is
  // sorted and merged into the sorted part: an attempt that allocates
  // thousands of blocks in the heap's order pays O(n / kTail) per block,
  // not an insertion sort's O(n). Disjoint.
  static constexpr size_t kTail = 32;
  GrowBuffer<MemRange> blocks;
  size_t sorted = 0;
  uintptr_t lo = 0, hi = 0; // the bounds of them all (hi == 0: none)

  size_t size() const { return blocks.size; }
  void clear() {
    blocks.clear();
    sorted = 0;
    lo = hi = 0;
  }
  void release() {
    blocks.release();
    sorted = 0;
    lo = hi = 0;
  }

  // Adds the block [p, p + n) (disjoint from every other: live blocks of a
  // heap do not overlap, and the attempt's frees wait for its commit).
  __attribute__((noinline)) void add(uintptr_t p, size_t n) {
    if (n == 0)
      return;
    bool ascending =
        sorted == blocks.size && (sorted == 0 || blocks[sorted - 1].lo < p);
    blocks.extend(1);
    blocks[blocks.size - 1] = MemRange{p, p + n};
    if (ascending)
      sorted = blocks.size;
    else if (blocks.size - sorted > kTail)
      merge_tail();
    if (hi == 0 || p < lo)
      lo = p;
    if (p + n > hi)
      hi = p + n;
  }

  // [a, a + n) lies in one captured block: the quick bounds test inline.
  __attribute__((always_inline)) bool contains(uintptr_t a, size_t n) const {
    return a >= lo && a + n <= hi && search(a, n);
  }

  // The lowest captured block that overlaps [a, b), if any.
  bool first_overlap(uintptr_t a, uintptr_t b, MemRange &out) const {
    if (b <= lo || a >= hi)
      return false;
    bool found = false;
    size_t i = upper_bound(a);
    if (i > 0 && blocks[i - 1].hi > a)
      --i; // (the block that holds A)
    if (i < sorted && blocks[i].lo < b) {
      out = blocks[i];
      found = true;
    }
    for (size_t j = sorted; j < blocks.size; ++j)
      if (blocks[j].lo < b && blocks[j].hi > a &&
          (!found || blocks[j].lo < out.lo)) {
        out = blocks[j];
        found = true;
      }
    return found;
  }

private:
  // Sorts the tail (a copy of it) and merges it into the sorted part from
  // the back: O(n) moves, no allocation.
  __attribute__((noinline)) void merge_tail() {
    MemRange tail[kTail + 1];
    size_t t = blocks.size - sorted;
    for (size_t j = 0; j < t; ++j)
      tail[j] = blocks[sorted + j];
    std::sort(tail, tail + t,
              [](const MemRange &x, const MemRange &y) { return x.lo < y.lo; });
    size_t i = sorted, k = blocks.size;
    while (t > 0) {
      if (i > 0 && blocks[i - 1].lo > tail[t - 1].lo)
        blocks[--k] = blocks[--i];
      else
        blocks[--k] = tail[--t];
    }
    sorted = blocks.size;
  }
  // The number of sorted blocks that begin at or below A.
  size_t upper_bound(uintptr_t a) const {
    size_t l = 0, r = sorted;
    while (l < r) {
      size_t m = (l + r) / 2;
      if (blocks[m].lo <= a)
        l = m + 1;
      else
        r = m;
    }
    return l;
  }
  __attribute__((noinline)) bool search(uintptr_t a, size_t n) const {
    size_t i = upper_bound(a);
    if (i > 0 && a + n <= blocks[i - 1].hi)
      return true;
    for (size_t j = sorted; j < blocks.size; ++j)
      if (a >= blocks[j].lo && a + n <= blocks[j].hi)
        return true;
    return false;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_CAPTURED_BLOCKS_H
