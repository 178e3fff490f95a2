//===- persistent_heap.cpp - the persistent allocator ---------------------===//
//
// Region layout (docs/palloc.md):
//   [0, 4096)            header (plain stores at format, read-only after)
//   [4096, ...)          chunk records, one per chunk, 576 bytes each:
//                          word 0      state (free / small / large head /
//                                      large continuation), with a check byte
//                          words 1..7  reserved, zero
//                          words 8..71 allocation bitmap (small chunks)
//   [data, data+N*64K)   the chunks, data 4096-aligned
// Persistent metadata changes go through the HeapWriter; volatile indexes
// (free-chunk set, per-arena lists of chunks with free blocks, per-chunk
// hints) are hints checked against the metadata read through the writer.
// Deferred reuse is per chunk: a chunk with a free not yet settled, or
// settled with a stamp that has not passed, is skipped by every allocation.
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/persistent_heap.h"

#include "runtime/base/report.h"

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <vector>

namespace ptm {

namespace {

constexpr uint64_t kMagic = 0x31504145484d5450ull; // "PTMHEAP1"
constexpr uint64_t kVersion = 1;
constexpr size_t kHeaderBytes = 4096;
constexpr unsigned kChunkShift = 16;
constexpr size_t kChunkSize = size_t(1) << kChunkShift;
constexpr size_t kMinBlock = 16;
constexpr size_t kBitmapWords = kChunkSize / kMinBlock / 64; // 64
constexpr size_t kRecordWords = 8 + kBitmapWords;            // 72
constexpr size_t kRecordBytes = kRecordWords * 8;            // 576
constexpr size_t kMaxSmall = 8192;
constexpr unsigned kMaxClasses = 40;
constexpr uint32_t kNone = ~uint32_t(0);

// State word: kind (bits 0-7), class (8-15), arena (16-23), count (24-55:
// chunks of a large block, or distance of a continuation chunk to its head),
// check byte (56-63) so that a flipped bit is detected.
enum Kind : uint64_t { kFree = 0, kSmall = 1, kLargeHead = 2, kLargeCont = 3 };

uint64_t check_byte(uint64_t low56) {
  uint64_t x = low56;
  uint64_t f = 0;
  for (int i = 0; i < 7; ++i, x >>= 8)
    f ^= x & 0xff;
  return f ^ 0x5a;
}
uint64_t seal(uint64_t low56) { return low56 | (check_byte(low56) << 56); }
uint64_t make_small(unsigned cls, unsigned arena) {
  return seal(kSmall | uint64_t(cls) << 8 | uint64_t(arena) << 16);
}
uint64_t make_head(unsigned arena, uint64_t n) {
  return seal(kLargeHead | uint64_t(arena) << 16 | n << 24);
}
uint64_t make_cont(uint64_t dist) { return seal(kLargeCont | dist << 24); }
bool sealed(uint64_t st) {
  return (st >> 56) == check_byte(st & ((uint64_t(1) << 56) - 1));
}
unsigned kind_of(uint64_t st) { return st & 0xff; }
unsigned class_of(uint64_t st) { return (st >> 8) & 0xff; }
unsigned arena_of(uint64_t st) { return (st >> 16) & 0xff; }
uint64_t count_of(uint64_t st) { return (st >> 24) & 0xffffffffull; }

uint64_t fnv(const uint64_t *w, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i)
    for (int b = 0; b < 8; ++b) {
      h ^= (w[i] >> (8 * b)) & 0xff;
      h *= 0x100000001b3ull;
    }
  return h;
}

uintptr_t align_up(uintptr_t x, uintptr_t a) { return (x + a - 1) & ~(a - 1); }

// Chunk count and data offset of a region at BASE of LEN bytes.
bool compute_layout(uintptr_t base, size_t len, uint64_t *nchunks,
                    uint64_t *data_offset) {
  if (len < kHeaderBytes)
    return false;
  uint64_t k = (len - kHeaderBytes) / (kChunkSize + kRecordBytes);
  for (;; --k) {
    uintptr_t data = align_up(base + kHeaderBytes + k * kRecordBytes, 4096);
    if (data + k * kChunkSize <= base + len || k == 0) {
      *nchunks = k;
      *data_offset = data - base;
      return data + k * kChunkSize <= base + len;
    }
  }
}

bool valid_granularity(size_t g) { return g == 16 || g == 32 || g == 64; }

} // namespace

struct PersistentHeap::Header {
  uint64_t magic;
  uint64_t version;
  uint64_t len;
  uint64_t granularity;
  uint64_t chunk_size;
  uint64_t nchunks;
  uint64_t meta_offset;
  uint64_t data_offset;
  uint64_t checksum; // fnv of the words above
};

struct PersistentHeap::Impl {
  // Per chunk, volatile. STATE mirrors the last state word this process
  // wrote or observed (for usable_size without a writer); USED approximates
  // the allocated blocks; NEXT_WORD is where the next scan starts; LISTED is
  // the (arena, class) list the chunk is on (listed_id), 0 if none.
  // Deferred reuse: UNSETTLED counts frees into the chunk whose transaction
  // has not settled them yet; FREED_AT is the latest settled stamp (0: none,
  // or passed).
  struct ChunkHint {
    std::atomic<uint64_t> state{0};
    std::atomic<uint32_t> used{0};
    std::atomic<uint32_t> next_word{0};
    std::atomic<uint32_t> listed{0};
    std::atomic<uint32_t> unsettled{0};
    std::atomic<uint64_t> freed_at{0};
  };
  struct alignas(64) Arena {
    std::mutex lock;
    std::vector<uint32_t> avail[kMaxClasses]; // chunks that may have room
    // Chunks of the frees this arena's thread applied since it last settled
    // (only that thread touches it).
    std::vector<uint32_t> unsettled;
  };
  // The latest stamp among the memory a request skipped because it is held
  // back: what the request waits for if it finds nothing else.
  struct Held {
    bool any = false;
    uint64_t until = 0;
    void note(uint64_t stamp) {
      any = true;
      until = stamp > until ? stamp : until;
    }
  };
  // try_alloc_in's outcome.
  enum Try { kGot, kGone, kHeld };

  char *base = nullptr;
  size_t len = 0;
  uint64_t *meta = nullptr;
  char *data = nullptr;
  uint32_t nchunks = 0;
  size_t gran = 16;

  unsigned nclasses = 0;
  uint32_t class_size[kMaxClasses] = {};
  uint32_t class_blocks[kMaxClasses] = {};
  uint8_t class_lookup[kMaxSmall / kMinBlock + 1] = {}; // by ceil(size/16)

  std::unique_ptr<ChunkHint[]> hints;
  std::unique_ptr<Arena[]> arenas;

  std::mutex global;             // guards freeset, cursor
  std::vector<uint64_t> freeset; // bit per chunk: probably free
  uint32_t cursor = 0;

  ReuseGate gate{}; // gate.passed null: no deferred reuse

  // ---- layout helpers
  uint64_t *state(uint32_t ch) const {
    return meta + size_t(ch) * kRecordWords;
  }
  uint64_t *bitmap(uint32_t ch) const { return state(ch) + 8; }
  char *chunk_addr(uint32_t ch) const {
    return data + (size_t(ch) << kChunkShift);
  }
  static uint32_t listed_id(unsigned arena, unsigned cls) {
    return (arena << 8 | cls) + 1;
  }
  uint32_t words_of(unsigned cls) const {
    return (class_blocks[cls] + 63) / 64;
  }
  uint64_t valid_mask(unsigned cls, uint32_t wi) const {
    uint32_t nb = class_blocks[cls];
    if (wi + 1 < words_of(cls) || nb % 64 == 0)
      return ~uint64_t(0);
    return (uint64_t(1) << (nb % 64)) - 1;
  }

  void build_classes(size_t g) {
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

  // ---- free-chunk set (caller holds GLOBAL)
  void set_free(uint32_t ch) { freeset[ch / 64] |= uint64_t(1) << (ch % 64); }
  void clear_free(uint32_t ch) {
    freeset[ch / 64] &= ~(uint64_t(1) << (ch % 64));
  }
  bool is_free(uint32_t ch) const { return freeset[ch / 64] >> (ch % 64) & 1; }
  uint32_t find_free_from(uint32_t from) const {
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
  // First fit: the lowest run of N chunks marked free from chunk FROM on.
  uint32_t find_run(uint64_t n, uint32_t from) const {
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

  // ---- arena lists (take the arena lock themselves; no writer calls)
  void list_push(uint32_t ch, unsigned cls, unsigned arena) {
    Arena &a = arenas[arena];
    std::lock_guard<std::mutex> g(a.lock);
    uint32_t id = listed_id(arena, cls);
    if (hints[ch].listed.load(std::memory_order_relaxed) == id)
      return;
    hints[ch].listed.store(id, std::memory_order_relaxed);
    a.avail[cls].push_back(ch);
  }
  void list_remove(uint32_t ch, unsigned cls, unsigned arena) {
    Arena &a = arenas[arena];
    std::lock_guard<std::mutex> g(a.lock);
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
  void mark_free(uint32_t ch) {
    std::lock_guard<std::mutex> g(global);
    set_free(ch);
  }
  void mark_taken(uint32_t ch) {
    std::lock_guard<std::mutex> g(global);
    clear_free(ch);
  }

  // A hint said CH is free or belongs to some list, but its state word
  // (read through the writer) is ST: put the hints right.
  void rehome(uint32_t ch, uint64_t st) {
    hints[ch].state.store(st, std::memory_order_relaxed);
    if (st == 0) {
      mark_free(ch);
      return;
    }
    mark_taken(ch);
    if (kind_of(st) == kSmall && sealed(st))
      list_push(ch, class_of(st), arena_of(st));
  }

  // ---- deferred reuse
  // A free into CH by ARENA's thread, before its transaction's commit point.
  void hold(uint32_t ch, unsigned arena) {
    if (!gate.passed)
      return;
    hints[ch].unsettled.fetch_add(1, std::memory_order_relaxed);
    arenas[arena].unsettled.push_back(ch);
  }

  void settle(unsigned arena, uint64_t stamp) {
    std::vector<uint32_t> &v = arenas[arena].unsettled;
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

  // May memory freed in CH be handed out now? Called after the metadata that
  // shows the free memory was read through the writer: a free that is
  // visible there has been held (or settled) by then.
  bool reusable(uint32_t ch, Held &held) {
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

  // ---- allocation
  // A block of CLS from CH (on OWNER's list for CLS) into *OUT: kGot; kGone
  // when CH left the list (full, or no longer a chunk of CLS); kHeld when CH
  // has room but holds memory freed too recently.
  Try try_alloc_in(uint32_t ch, unsigned cls, unsigned owner, HeapWriter &w,
                   Held &held, void **out) {
    uint64_t st = w.read(state(ch));
    if (st != make_small(cls, owner)) {
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
      h.used.fetch_add(1, std::memory_order_relaxed);
      *out = chunk_addr(ch) + (size_t(wi) * 64 + bit) * class_size[cls];
      return kGot;
    }
    // Full (as this transaction sees it): off the list until a free.
    h.used.store(class_blocks[cls], std::memory_order_relaxed);
    list_remove(ch, cls, owner);
    return kGone;
  }

  // A block of CLS from the chunks on OWNER's list, newest first, passing
  // over the ones that hold memory freed too recently.
  void *alloc_from_list(unsigned owner, unsigned cls, HeapWriter &w,
                        Held &held) {
    for (size_t skipped = 0;;) {
      uint32_t ch;
      {
        std::lock_guard<std::mutex> g(arenas[owner].lock);
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
        return p;
      case kHeld:
        ++skipped;
        break;
      case kGone:
        break;
      }
    }
  }

  // Takes a free chunk for (CLS, ARENA); false if none is left (or every
  // free one holds memory freed too recently).
  bool claim_chunk(unsigned cls, unsigned arena, HeapWriter &w, Held &held) {
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
      }
      uint64_t st = w.read(state(ch));
      if (st != 0) {
        rehome(ch, st);
        continue;
      }
      if (!reusable(ch, held)) {
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
      mark_taken(ch);
      list_push(ch, cls, arena);
      return true;
    }
  }

  // Additive resynchronization of the hints with the metadata, for a
  // request that found no room (hints go stale when a transaction aborts
  // after claiming a chunk or filling one). Every free chunk goes back to
  // the free set; if there is none, every small chunk of class CLS that has
  // room and is on no list goes back to its arena's list. Reads only state
  // words, and bitmaps of CLS's unlisted chunks.
  void resync(unsigned cls, HeapWriter &w) {
    bool found_free = false;
    for (uint32_t ch = 0; ch < nchunks; ++ch) {
      uint64_t st = w.read(state(ch));
      if (st == 0) {
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

  // Allocation from other arenas' chunks of CLS (the heap is out of chunks).
  void *steal(unsigned cls, unsigned arena, HeapWriter &w, Held &held) {
    for (unsigned k = 1; k < kMaxThreads; ++k)
      if (void *p = alloc_from_list((arena + k) % kMaxThreads, cls, w, held))
        return p;
    return nullptr;
  }

  void *alloc_small(unsigned cls, size_t align, unsigned arena, HeapWriter &w,
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

  void *alloc_large(size_t size, unsigned arena, HeapWriter &w, Held &held) {
    uint64_t n = (uint64_t(size) + kChunkSize - 1) >> kChunkShift;
    if (n > nchunks)
      return nullptr;
    for (int round = 0; round < 2; ++round) {
      for (uint32_t from = 0;;) {
        uint32_t ch;
        {
          std::lock_guard<std::mutex> g(global);
          ch = find_run(n, from);
        }
        if (ch == kNone)
          break;
        bool ok = true;
        for (uint64_t i = 0; i < n && ok; ++i) {
          uint64_t st = w.read(state(ch + uint32_t(i)));
          if (st != 0) {
            rehome(ch + uint32_t(i), st);
            ok = false;
          }
        }
        for (uint64_t i = 0; i < n && ok; ++i)
          if (!reusable(ch + uint32_t(i), held)) {
            from = ch + uint32_t(i) + 1; // no run through this chunk for now
            ok = false;
          }
        if (!ok)
          continue;
        uint64_t head = make_head(arena, n);
        w.write(state(ch), head);
        hints[ch].state.store(head, std::memory_order_relaxed);
        for (uint64_t i = 1; i < n; ++i) {
          uint64_t c = make_cont(i);
          w.write(state(ch + uint32_t(i)), c);
          hints[ch + i].state.store(c, std::memory_order_relaxed);
        }
        {
          std::lock_guard<std::mutex> g(global);
          for (uint64_t i = 0; i < n; ++i)
            clear_free(ch + uint32_t(i));
        }
        return chunk_addr(ch);
      }
      if (round == 0)
        resync(kMaxClasses, w);
    }
    return nullptr;
  }

  // ---- release
  // After a free in a small chunk whose approximate count reached 0: give
  // the chunk back if it really is empty and its arena keeps another chunk
  // of the class.
  void maybe_return(uint32_t ch, unsigned cls, unsigned owner, HeapWriter &w) {
    {
      Arena &a = arenas[owner];
      std::lock_guard<std::mutex> g(a.lock);
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

  void release(void *ptr, unsigned arena, HeapWriter &w) {
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
      while (used && !h.used.compare_exchange_weak(used, used - 1,
                                                   std::memory_order_relaxed))
        ;
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
      for (uint64_t i = 0; i < n; ++i) {
        w.write(state(ch + uint32_t(i)), 0);
        hints[ch + i].state.store(0, std::memory_order_relaxed);
      }
      for (uint64_t i = 0; i < n; ++i)
        hold(ch + uint32_t(i), arena);
      std::lock_guard<std::mutex> g(global);
      for (uint64_t i = 0; i < n; ++i)
        set_free(ch + uint32_t(i));
      return;
    }
    fatal("ptm_free(%p): not an allocated block", ptr);
  }

  // ---- checking
  bool check_chunks(std::string *error, HeapStats *stats) const {
    HeapStats s{};
    s.chunks_total = nchunks;
    s.bytes_total = uint64_t(nchunks) << kChunkShift;
    char buf[160];
    auto fail = [&](uint32_t ch, const char *what) {
      if (error) {
        snprintf(buf, sizeof buf, "heap chunk %u: %s", ch, what);
        *error = buf;
      }
      return false;
    };
    for (uint32_t ch = 0; ch < nchunks; ++ch) {
      const uint64_t *rec = state(ch);
      for (int i = 1; i < 8; ++i)
        if (rec[i])
          return fail(ch, "reserved metadata word is not zero");
      uint64_t st = rec[0];
      const uint64_t *bm = rec + 8;
      auto bitmap_zero = [&] {
        for (size_t i = 0; i < kBitmapWords; ++i)
          if (bm[i])
            return false;
        return true;
      };
      if (st == 0) {
        if (!bitmap_zero())
          return fail(ch, "free chunk with a non-empty allocation bitmap");
        ++s.chunks_free;
        s.bytes_free += kChunkSize;
        continue;
      }
      if (!sealed(st))
        return fail(ch, "state word fails its check byte");
      switch (kind_of(st)) {
      case kSmall: {
        unsigned cls = class_of(st);
        if (cls >= nclasses || count_of(st) != 0)
          return fail(ch, "small chunk with a bad size class");
        uint32_t nw = words_of(cls);
        uint64_t used = 0;
        for (uint32_t wi = 0; wi < kBitmapWords; ++wi) {
          uint64_t valid = wi < nw ? valid_mask(cls, wi) : 0;
          if (bm[wi] & ~valid)
            return fail(ch, "allocation bit set beyond the chunk's blocks");
          used += __builtin_popcountll(bm[wi]);
        }
        ++s.chunks_small;
        s.blocks_allocated += used;
        s.bytes_allocated += used * class_size[cls];
        s.bytes_free += (class_blocks[cls] - used) * class_size[cls];
        break;
      }
      case kLargeHead: {
        uint64_t n = count_of(st);
        if (class_of(st) != 0 || n == 0 || n > nchunks - ch)
          return fail(ch, "large block with a bad length");
        for (uint64_t i = 0; i < n; ++i) {
          uint32_t c = ch + uint32_t(i);
          if (i > 0 && state(c)[0] != make_cont(i))
            return fail(c, "large block continuation does not match its head");
          for (size_t k = 0; k < kBitmapWords; ++k)
            if (state(c)[8 + k])
              return fail(c, "large block chunk with a non-empty bitmap");
          for (int k = 1; k < 8; ++k)
            if (state(c)[k])
              return fail(c, "reserved metadata word is not zero");
        }
        ++s.large_blocks;
        ++s.blocks_allocated;
        s.chunks_large += n;
        s.bytes_allocated += n << kChunkShift;
        ch += uint32_t(n - 1);
        break;
      }
      case kLargeCont:
        return fail(ch, "large block continuation without a head");
      default:
        return fail(ch, "unknown chunk state");
      }
    }
    if (stats)
      *stats = s;
    return true;
  }
};

size_t PersistentHeap::min_region_size() {
  return kHeaderBytes + align_up(kRecordBytes, 4096) + 4096 + kChunkSize;
}

PersistentHeap::PersistentHeap() = default;
PersistentHeap::~PersistentHeap() = default;

void PersistentHeap::format(void *base, size_t len, size_t granularity) {
  if (!valid_granularity(granularity))
    fatal("persistent heap: granularity %zu is not 16, 32 or 64", granularity);
  if (len < kHeaderBytes)
    fatal("persistent heap: region of %zu bytes is too small", len);
  uint64_t nchunks = 0, data_offset = 0;
  compute_layout(reinterpret_cast<uintptr_t>(base), len, &nchunks,
                 &data_offset);
  char *b = static_cast<char *>(base);
  memset(b, 0, kHeaderBytes);
  memset(b + kHeaderBytes, 0, nchunks * kRecordBytes);
  Header *h = reinterpret_cast<Header *>(b);
  h->magic = kMagic;
  h->version = kVersion;
  h->len = len;
  h->granularity = granularity;
  h->chunk_size = kChunkSize;
  h->nchunks = nchunks;
  h->meta_offset = kHeaderBytes;
  h->data_offset = data_offset;
  h->checksum = fnv(&h->magic, 8);
}

bool PersistentHeap::attach(void *base, size_t len, std::string *error) {
  header_ = nullptr;
  impl_.reset();
  auto fail = [&](const std::string &msg) {
    if (error)
      *error = msg;
    return false;
  };
  uintptr_t b = reinterpret_cast<uintptr_t>(base);
  if (!base || b % 64)
    return fail("heap region is not 64-byte aligned");
  if (len < kHeaderBytes)
    return fail("heap region is too small for its header");
  const Header *h = static_cast<const Header *>(base);
  if (h->magic != kMagic)
    return fail("heap header: bad magic (not a formatted heap)");
  if (h->version != kVersion)
    return fail("heap header: version " + std::to_string(h->version) +
                ", expected " + std::to_string(kVersion));
  if (h->checksum != fnv(&h->magic, 8))
    return fail("heap header: checksum mismatch");
  uint64_t nchunks = 0, data_offset = 0;
  compute_layout(b, len, &nchunks, &data_offset);
  if (h->len != len || h->chunk_size != kChunkSize ||
      h->meta_offset != kHeaderBytes || h->nchunks != nchunks ||
      h->data_offset != data_offset || !valid_granularity(h->granularity))
    return fail("heap header: layout does not match the region (length " +
                std::to_string(h->len) + " recorded, " + std::to_string(len) +
                " given)");

  auto impl = std::make_unique<Impl>();
  Impl &m = *impl;
  m.base = static_cast<char *>(base);
  m.len = len;
  m.meta = reinterpret_cast<uint64_t *>(m.base + kHeaderBytes);
  m.data = m.base + data_offset;
  m.nchunks = uint32_t(nchunks);
  m.build_classes(h->granularity);
  m.hints.reset(new Impl::ChunkHint[nchunks ? nchunks : 1]);
  m.arenas.reset(new Impl::Arena[kMaxThreads]);
  m.freeset.assign((nchunks + 63) / 64, 0);
  if (!m.check_chunks(error, nullptr))
    return false;
  for (uint32_t ch = 0; ch < m.nchunks; ++ch) {
    uint64_t st = *m.state(ch);
    m.hints[ch].state.store(st, std::memory_order_relaxed);
    if (st == 0) {
      m.set_free(ch);
    } else if (kind_of(st) == kSmall) {
      unsigned cls = class_of(st), owner = arena_of(st);
      uint32_t used = 0;
      for (uint32_t wi = 0; wi < m.words_of(cls); ++wi)
        used += __builtin_popcountll(m.bitmap(ch)[wi]);
      m.hints[ch].used.store(used, std::memory_order_relaxed);
      if (used < m.class_blocks[cls]) {
        m.hints[ch].listed.store(Impl::listed_id(owner, cls),
                                 std::memory_order_relaxed);
        m.arenas[owner].avail[cls].push_back(ch);
      }
    }
  }
  granularity_ = h->granularity;
  impl_ = std::move(impl);
  header_ = reinterpret_cast<Header *>(base);
  return true;
}

void *PersistentHeap::allocate(size_t size, size_t align, unsigned thread,
                               HeapWriter &w) {
  if (!impl_)
    return nullptr;
  Impl &m = *impl_;
  if (thread >= kMaxThreads)
    fatal("persistent heap: thread slot %u out of range", thread);
  if (align == 0 || align < m.gran)
    align = m.gran;
  if ((align & (align - 1)) || align > kMaxAlign)
    return nullptr;
  if (size == 0)
    size = 1;
  Impl::Held held;
  void *p = nullptr;
  unsigned cls = m.nclasses;
  if (size <= kMaxSmall) {
    cls = m.class_lookup[(size + kMinBlock - 1) / kMinBlock];
    while (cls < m.nclasses && m.class_size[cls] % align)
      ++cls;
  }
  if (cls < m.nclasses)
    p = m.alloc_small(cls, align, thread, w, held);
  else if (size <= (size_t(m.nchunks) << kChunkShift))
    p = m.alloc_large(size, thread, w, held);
  if (!p && held.any)
    w.reuse_blocked(held.until); // (does not return if the writer can wait)
  return p;
}

void PersistentHeap::release(void *ptr, unsigned thread, HeapWriter &w) {
  if (!ptr)
    return;
  if (!impl_)
    fatal("ptm_free(%p): the persistent heap is not attached", ptr);
  if (thread >= kMaxThreads)
    fatal("persistent heap: thread slot %u out of range", thread);
  impl_->release(ptr, thread, w);
}

void PersistentHeap::set_reuse_gate(const ReuseGate *gate) {
  if (impl_)
    impl_->gate = gate ? *gate : ReuseGate{};
}

void PersistentHeap::settle_frees(unsigned thread, uint64_t stamp) {
  if (impl_ && thread < kMaxThreads)
    impl_->settle(thread, stamp);
}

size_t PersistentHeap::usable_size(const void *ptr) const {
  if (!impl_ || !contains(ptr))
    return 0;
  const Impl &m = *impl_;
  size_t off = size_t(static_cast<const char *>(ptr) - m.data);
  uint32_t ch = uint32_t(off >> kChunkShift);
  off &= kChunkSize - 1;
  // The committed state word is authoritative when it is not free (a chunk
  // with a live block cannot change); a free word may be a chunk claimed by
  // the caller's own uncommitted transaction: then the hint knows it.
  uint64_t st = *m.state(ch);
  if (st == 0)
    st = m.hints[ch].state.load(std::memory_order_relaxed);
  if (!sealed(st))
    return 0;
  if (kind_of(st) == kSmall && class_of(st) < m.nclasses) {
    size_t bs = m.class_size[class_of(st)];
    return off % bs == 0 ? bs : 0;
  }
  if (kind_of(st) == kLargeHead && off == 0)
    return size_t(count_of(st)) << kChunkShift;
  return 0;
}

bool PersistentHeap::contains(const void *ptr) const {
  if (!impl_)
    return false;
  const char *p = static_cast<const char *>(ptr);
  return p >= impl_->data &&
         p < impl_->data + (size_t(impl_->nchunks) << kChunkShift);
}

bool PersistentHeap::check(std::string *error) const {
  if (!impl_) {
    if (error)
      *error = "heap is not attached";
    return false;
  }
  const Header *h = header_;
  if (h->magic != kMagic || h->checksum != fnv(&h->magic, 8)) {
    if (error)
      *error = "heap header: damaged (magic or checksum)";
    return false;
  }
  return impl_->check_chunks(error, nullptr);
}

HeapStats PersistentHeap::stats() const {
  HeapStats s{};
  if (impl_) {
    std::string ignored;
    impl_->check_chunks(&ignored, &s);
  }
  return s;
}

} // namespace ptm
