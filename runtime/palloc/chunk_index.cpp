//===- chunk_index.cpp - chunk hints: free set, arena lists, resync -------===//
//
// The volatile indexes of the persistent heap: the size classes, the set of
// chunks that are probably free, the per-arena lists of chunks that may have
// room, and the resynchronization of these hints with the metadata when a
// request finds nothing. Hints are checked against the metadata read through
// the writer before anything is taken.
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/heap_impl.h"

#include <mutex>
#include <vector>

namespace ptm {

using namespace palloc;

void PersistentHeap::Impl::build_classes(size_t g) {
  gran = g;
  nclasses = 0;
  auto add = [&](uint32_t s) {
    if (s % g == 0 && s <= kMaxSmall &&
        (nclasses == 0 || class_size[nclasses - 1] < s)) {
      class_size[nclasses] = s;
      class_blocks[nclasses] = kChunkSize / s;
      ++nclasses;
    }
  };
  for (uint32_t s = 16; s <= 128; s += 16)
    add(s);
  for (uint32_t p = 128; p < kMaxSmall; p *= 2)
    for (uint32_t q = 5; q <= 8; ++q)
      add(p * q / 4);
  unsigned c = 0;
  for (size_t i = 0; i <= kMaxSmall / kMinBlock; ++i) {
    size_t s = i * kMinBlock;
    while (c < nclasses && class_size[c] < s)
      ++c;
    class_lookup[i] = uint8_t(c);
  }
}

uint32_t PersistentHeap::Impl::find_free_from(uint32_t from) const {
  size_t nw = freeset.size();
  if (nw == 0)
    return kNone;
  from = from < nchunks ? from : 0;
  size_t w0 = from / 64;
  uint64_t first = freeset[w0] & (~uint64_t(0) << (from % 64));
  if (first)
    return uint32_t(w0 * 64 + __builtin_ctzll(first));
  for (size_t i = 1; i <= nw; ++i) {
    size_t wi = (w0 + i) % nw;
    if (freeset[wi])
      return uint32_t(wi * 64 + __builtin_ctzll(freeset[wi]));
  }
  return kNone;
}

uint32_t PersistentHeap::Impl::find_run(uint64_t n, uint32_t from) const {
  uint32_t run = 0, start = 0;
  for (uint32_t ch = from; ch < nchunks; ++ch) {
    if (ch % 64 == 0 && freeset[ch / 64] == 0) {
      run = 0;
      ch += 63;
      continue;
    }
    if (is_free(ch)) {
      if (run == 0)
        start = ch;
      if (++run == n)
        return start;
    } else {
      run = 0;
    }
  }
  return kNone;
}

void PersistentHeap::Impl::list_push(uint32_t ch, unsigned cls,
                                     unsigned arena) {
  Arena &a = arenas[arena];
  std::lock_guard<SpinLock> g(a.lock);
  uint32_t id = listed_id(arena, cls);
  if (hints[ch].listed.load(std::memory_order_relaxed) == id)
    return;
  hints[ch].listed.store(id, std::memory_order_relaxed);
  a.avail[cls].push_back(ch);
}

void PersistentHeap::Impl::list_remove(uint32_t ch, unsigned cls,
                                       unsigned arena) {
  Arena &a = arenas[arena];
  std::lock_guard<SpinLock> g(a.lock);
  std::vector<uint32_t> &v = a.avail[cls];
  for (size_t i = v.size(); i-- > 0;)
    if (v[i] == ch) {
      v[i] = v.back();
      v.pop_back();
      break;
    }
  uint32_t id = listed_id(arena, cls);
  if (hints[ch].listed.load(std::memory_order_relaxed) == id)
    hints[ch].listed.store(0, std::memory_order_relaxed);
}

void PersistentHeap::Impl::mark_free(uint32_t ch) {
  std::lock_guard<std::mutex> g(global);
  set_free(ch);
}

void PersistentHeap::Impl::unreserve(uint32_t ch, bool free) {
  std::lock_guard<std::mutex> g(global);
  reserved[ch / 64] &= ~(uint64_t(1) << (ch % 64));
  if (free)
    set_free(ch);
}

void PersistentHeap::Impl::keep_reservation(uint32_t ch, unsigned arena,
                                            const HeapWriter &w) {
  if (w.in_transaction())
    arenas[arena].reserved.push_back(ch);
  else
    unreserve(ch, false);
}

void PersistentHeap::Impl::mark_taken(uint32_t ch) {
  std::lock_guard<std::mutex> g(global);
  clear_free(ch);
}

void PersistentHeap::Impl::rehome(uint32_t ch, uint64_t st) {
  hints[ch].state.store(st, std::memory_order_relaxed);
  if (st == 0) {
    mark_free(ch);
    return;
  }
  mark_taken(ch);
  if (kind_of(st) == kSmall && sealed(st))
    list_push(ch, class_of(st), arena_of(st));
}

void PersistentHeap::Impl::resync(unsigned cls, HeapWriter &w) {
  bool found_free = false;
  uint64_t cw = 0;
  uint32_t cw_index = kNone;
  for (uint32_t ch = 0; ch < nchunks; ++ch) {
    uint64_t st = w.read(state(ch));
    if (st == 0) {
      if (cw_index != ch / 64) {
        cw_index = ch / 64;
        cw = w.read(cover_word(ch));
      }
      if (covered(ch, cw)) {
        // (A continuation whose head the loop did not pass: taken.)
        hints[ch].state.store(make_cont(0), std::memory_order_relaxed);
        mark_taken(ch);
        continue;
      }
      // (The hint keeps what a claim in flight may have stored.)
      found_free = true;
      mark_free(ch);
      continue;
    }
    hints[ch].state.store(st, std::memory_order_relaxed);
    if (kind_of(st) == kLargeHead && sealed(st)) {
      uint64_t n = count_of(st);
      if (n > 1 && n <= nchunks - ch)
        ch += uint32_t(n - 1);
    }
  }
  if (found_free || cls >= nclasses)
    return;
  for (uint32_t ch = 0; ch < nchunks; ++ch) {
    uint64_t st = hints[ch].state.load(std::memory_order_relaxed);
    if (kind_of(st) != kSmall || class_of(st) != cls || !sealed(st))
      continue;
    unsigned owner = arena_of(st);
    if (hints[ch].listed.load(std::memory_order_relaxed) ==
        listed_id(owner, cls))
      continue;
    uint32_t used = 0;
    for (uint32_t wi = 0; wi < words_of(cls); ++wi)
      used +=
          __builtin_popcountll(w.read(bitmap(ch) + wi) & valid_mask(cls, wi));
    if (used < class_blocks[cls]) {
      hints[ch].used.store(used, std::memory_order_relaxed);
      hints[ch].next_word.store(0, std::memory_order_relaxed);
      list_push(ch, cls, owner);
    }
  }
}

} // namespace ptm
