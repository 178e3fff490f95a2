//===- heap_alloc.cpp - small and large allocation ------------------------===//
//
// Small blocks come from a chunk of their size class on the thread's arena
// list, then from a newly claimed free chunk, then (after a resync) from
// other arenas' chunks and larger classes; large blocks take a first-fit
// run of free chunks (a head state word and the continuations' cover
// bits). Every path skips memory held back for reuse and
// notes the stamp it would wait for.
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/heap_impl.h"

#include <mutex>
#include <vector>

namespace ptm {

using namespace palloc;

PersistentHeap::Impl::Try
PersistentHeap::Impl::try_alloc_in(uint32_t ch, unsigned cls, unsigned owner,
                                   HeapWriter &w, Held &held, void **out) {
  uint64_t st = w.read(state(ch));
  if (st != make_small(cls, owner)) {
    if (st == 0)
      st = chunk_state(ch, w);
    list_remove(ch, cls, owner);
    rehome(ch, st);
    return kGone;
  }
  ChunkHint &h = hints[ch];
  uint32_t nw = words_of(cls);
  uint32_t start = h.next_word.load(std::memory_order_relaxed);
  if (start >= nw)
    start = 0;
  for (uint32_t i = 0; i < nw; ++i) {
    uint32_t wi = start + i < nw ? start + i : start + i - nw;
    uint64_t *bw = bitmap(ch) + wi;
    uint64_t v = w.read(bw);
    uint64_t room = ~v & valid_mask(cls, wi);
    if (!room)
      continue;
    if (!reusable(ch, held))
      return kHeld;
    unsigned bit = __builtin_ctzll(room);
    w.write(bw, v | uint64_t(1) << bit);
    h.next_word.store(wi, std::memory_order_relaxed);
    // (a plain load and store, no locked instruction: ChunkHint::used)
    h.used.store(h.used.load(std::memory_order_relaxed) + 1,
                 std::memory_order_relaxed);
    *out = chunk_addr(ch) + (size_t(wi) * 64 + bit) * class_size[cls];
    return kGot;
  }
  // Full (as this transaction sees it): off the list until a free.
  h.used.store(class_blocks[cls], std::memory_order_relaxed);
  list_remove(ch, cls, owner);
  return kGone;
}

void *PersistentHeap::Impl::alloc_from_list(unsigned owner, unsigned cls,
                                            HeapWriter &w, Held &held) {
  // The chunk of the arena's last allocation of the class first, without
  // the lock (whatever the hint says, try_alloc_in reads the metadata).
  std::atomic<uint32_t> &hot = arenas[owner].hot[cls];
  uint32_t last = hot.load(std::memory_order_relaxed);
  if (last != kNone && reusable(last, held)) {
    void *p = nullptr;
    Try t = try_alloc_in(last, cls, owner, w, held, &p);
    if (t == kGot)
      return p;
    if (t == kGone)
      hot.store(kNone, std::memory_order_relaxed);
  }
  for (size_t skipped = 0;;) {
    uint32_t ch;
    {
      std::lock_guard<SpinLock> g(arenas[owner].lock);
      const std::vector<uint32_t> &v = arenas[owner].avail[cls];
      if (skipped >= v.size())
        return nullptr;
      ch = v[v.size() - 1 - skipped];
    }
    // (Checked again in try_alloc_in, after reading the metadata; this
    // first look spares the reads of a chunk that is held back anyway.)
    if (!reusable(ch, held)) {
      ++skipped;
      continue;
    }
    void *p = nullptr;
    switch (try_alloc_in(ch, cls, owner, w, held, &p)) {
    case kGot:
      hot.store(ch, std::memory_order_relaxed);
      return p;
    case kHeld:
      ++skipped;
      break;
    case kGone:
      break;
    }
  }
}

bool PersistentHeap::Impl::claim_chunk(unsigned cls, unsigned arena,
                                       HeapWriter &w, Held &held) {
  // (FROM: past the held chunks seen, kNone: at the cursor; a search that
  // comes back to its first held chunk, or has passed over more held
  // chunks than there are, has seen every free one.)
  uint32_t from = kNone, first_held = kNone, nheld = 0;
  for (;;) {
    uint32_t ch;
    {
      std::lock_guard<std::mutex> g(global);
      ch = find_free_from(from == kNone ? cursor : from);
      if (ch == kNone || ch == first_held || nheld > nchunks)
        return false;
      if (from == kNone)
        cursor = ch + 1;
      reserve_locked(ch); // (no other claim takes it while we look)
    }
    uint64_t st = chunk_state(ch, w);
    if (st != 0) {
      unreserve(ch, false);
      rehome(ch, st);
      continue;
    }
    if (!reusable(ch, held)) {
      unreserve(ch, true);
      if (first_held == kNone)
        first_held = ch;
      ++nheld;
      from = ch + 1;
      continue;
    }
    uint64_t ns = make_small(cls, arena);
    w.write(state(ch), ns);
    ChunkHint &h = hints[ch];
    h.state.store(ns, std::memory_order_relaxed);
    h.used.store(0, std::memory_order_relaxed);
    h.next_word.store(0, std::memory_order_relaxed);
    keep_reservation(ch, arena, w);
    list_push(ch, cls, arena);
    return true;
  }
}

void *PersistentHeap::Impl::steal(unsigned cls, unsigned arena, HeapWriter &w,
                                  Held &held) {
  for (unsigned k = 1; k < kMaxThreads; ++k)
    if (void *p = alloc_from_list((arena + k) % kMaxThreads, cls, w, held))
      return p;
  return nullptr;
}

void *PersistentHeap::Impl::alloc_small(unsigned cls, size_t align,
                                        unsigned arena, HeapWriter &w,
                                        Held &held) {
  bool resynced = false;
  for (;;) {
    if (void *p = alloc_from_list(arena, cls, w, held))
      return p;
    if (claim_chunk(cls, arena, w, held))
      continue;
    if (!resynced) {
      resynced = true;
      resync(cls, w);
      continue;
    }
    if (void *p = steal(cls, arena, w, held))
      return p;
    // Last resort: a block of a larger class (of any arena).
    for (unsigned c = cls + 1; c < nclasses; ++c)
      if (class_size[c] % align == 0) {
        if (void *p = alloc_from_list(arena, c, w, held))
          return p;
        if (void *p = steal(c, arena, w, held))
          return p;
      }
    return nullptr;
  }
}

void *PersistentHeap::Impl::alloc_large(size_t size, unsigned arena,
                                        HeapWriter &w, Held &held) {
  uint64_t n = (uint64_t(size) + kChunkSize - 1) >> kChunkShift;
  if (n > nchunks)
    return nullptr;
  for (int round = 0; round < 2; ++round) {
    for (uint32_t from = 0;;) {
      uint32_t ch;
      {
        std::lock_guard<std::mutex> g(global);
        ch = find_run(n, from);
        if (ch != kNone) // (no other request takes them while we look)
          for (uint64_t i = 0; i < n; ++i)
            reserve_locked(ch + uint32_t(i));
      }
      if (ch == kNone)
        break;
      // Every chunk of the run free: state word 0, cover bit clear (one
      // read per cover word).
      bool ok = true;
      uint64_t cw = 0;
      for (uint64_t i = 0; i < n && ok; ++i) {
        uint32_t c = ch + uint32_t(i);
        if (i == 0 || c % 64 == 0)
          cw = w.read(cover_word(c));
        uint64_t st = w.read(state(c));
        if (st == 0 && covered(c, cw))
          st = make_cont(0);
        if (st != 0) {
          rehome(c, st);
          ok = false;
        }
      }
      for (uint64_t i = 0; i < n && ok; ++i)
        if (!reusable(ch + uint32_t(i), held)) {
          from = ch + uint32_t(i) + 1; // no run through this chunk for now
          ok = false;
        }
      if (!ok) {
        // (a chunk found taken was rehomed: its hint is not 0)
        for (uint64_t i = 0; i < n; ++i) {
          uint32_t c = ch + uint32_t(i);
          unreserve(c, hints[c].state.load(std::memory_order_relaxed) == 0);
        }
        continue;
      }
      // The head's state word and the continuations' cover bits:
      // 1 + ceil(n/64) (at most) metadata words written, whatever n.
      uint64_t head = make_head(arena, n);
      w.write(state(ch), head);
      hints[ch].state.store(head, std::memory_order_relaxed);
      set_cover(ch + 1, n - 1, true, w);
      for (uint64_t i = 1; i < n; ++i)
        hints[ch + i].state.store(make_cont(i), std::memory_order_relaxed);
      for (uint64_t i = 0; i < n; ++i)
        keep_reservation(ch + uint32_t(i), arena, w);
      return chunk_addr(ch);
    }
    if (round == 0)
      resync(kMaxClasses, w);
  }
  return nullptr;
}

void PersistentHeap::Impl::set_cover(uint32_t first, uint64_t n, bool on,
                                     HeapWriter &w) {
  for (uint64_t i = 0; i < n;) {
    uint32_t c = first + uint32_t(i);
    unsigned lo = c % 64;
    uint64_t take = 64 - lo < n - i ? 64 - lo : n - i;
    uint64_t mask = (take == 64 ? ~uint64_t(0) : ((uint64_t(1) << take) - 1))
                    << lo;
    uint64_t *cw = cover_word(c);
    uint64_t v = w.read(cw);
    w.write(cw, on ? v | mask : v & ~mask);
    i += take;
  }
}

} // namespace ptm
