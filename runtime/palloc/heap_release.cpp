//===- heap_release.cpp - freeing blocks ----------------------------------===//
//
// A free clears the block's allocation bit (small) or the head's state
// word and the continuations' cover bits (large) through the writer, holds the
// chunk for deferred reuse and gives an empty small chunk back to the free set
// when its arena keeps another chunk of the class.
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/heap_impl.h"

#include "runtime/base/report.h"

#include <mutex>

namespace ptm {

using namespace palloc;

void PersistentHeap::Impl::maybe_return(uint32_t ch, unsigned cls,
                                        unsigned owner, HeapWriter &w) {
  {
    Arena &a = arenas[owner];
    std::lock_guard<SpinLock> g(a.lock);
    if (a.avail[cls].size() < 2)
      return;
  }
  uint32_t used = 0;
  for (uint32_t wi = 0; wi < words_of(cls); ++wi)
    used += __builtin_popcountll(w.read(bitmap(ch) + wi));
  if (used) {
    hints[ch].used.store(used, std::memory_order_relaxed);
    return;
  }
  w.write(state(ch), 0);
  hints[ch].state.store(0, std::memory_order_relaxed);
  list_remove(ch, cls, owner);
  mark_free(ch);
}

void PersistentHeap::Impl::release(void *ptr, unsigned arena, HeapWriter &w) {
  char *p = static_cast<char *>(ptr);
  if (p < data || p >= data + (size_t(nchunks) << kChunkShift))
    fatal("ptm_free(%p): not a block of the persistent heap", ptr);
  size_t off = size_t(p - data);
  uint32_t ch = uint32_t(off >> kChunkShift);
  off &= kChunkSize - 1;
  uint64_t st = w.read(state(ch));
  if (!sealed(st))
    fatal("ptm_free(%p): damaged heap metadata (chunk %u)", ptr, ch);
  if (kind_of(st) == kSmall && class_of(st) < nclasses) {
    unsigned cls = class_of(st), owner = arena_of(st);
    size_t idx = off / class_size[cls];
    if (off % class_size[cls] || idx >= class_blocks[cls])
      fatal("ptm_free(%p): not the start of a block", ptr);
    uint64_t *bw = bitmap(ch) + idx / 64;
    uint64_t bit = uint64_t(1) << (idx % 64);
    uint64_t v = w.read(bw);
    if (!(v & bit))
      fatal("ptm_free(%p): block is not allocated (double free?)", ptr);
    w.write(bw, v & ~bit);
    ChunkHint &h = hints[ch];
    h.state.store(st, std::memory_order_relaxed);
    h.next_word.store(uint32_t(idx / 64), std::memory_order_relaxed);
    uint32_t used = h.used.load(std::memory_order_relaxed);
    if (used) // (a plain store: ChunkHint::used)
      h.used.store(used - 1, std::memory_order_relaxed);
    if (h.listed.load(std::memory_order_relaxed) != listed_id(owner, cls))
      list_push(ch, cls, owner);
    if (used <= 1)
      maybe_return(ch, cls, owner, w);
    hold(ch, arena);
    return;
  }
  if (kind_of(st) == kLargeHead && off == 0) {
    uint64_t n = count_of(st);
    if (n == 0 || ch + n > nchunks)
      fatal("ptm_free(%p): damaged heap metadata (chunk %u)", ptr, ch);
    w.write(state(ch), 0);
    set_cover(ch + 1, n - 1, false, w);
    for (uint64_t i = 0; i < n; ++i)
      hints[ch + i].state.store(0, std::memory_order_relaxed);
    for (uint64_t i = 0; i < n; ++i)
      hold(ch + uint32_t(i), arena);
    std::lock_guard<std::mutex> g(global);
    for (uint64_t i = 0; i < n; ++i)
      set_free(ch + uint32_t(i));
    return;
  }
  fatal("ptm_free(%p): not an allocated block", ptr);
}

} // namespace ptm
