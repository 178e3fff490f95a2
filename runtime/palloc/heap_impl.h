//===- heap_impl.h - the persistent heap's volatile state -------*- C++ -*-===//
//
// PersistentHeap::Impl: the volatile hints and indexes over an attached
// region (per-chunk hints, arenas, the free-chunk set, the reuse gate), the
// layout helpers, and the operations, defined by concern in
// chunk_index.cpp, deferred_reuse.cpp, heap_alloc.cpp, heap_release.cpp and
// heap_check.cpp. Persistent metadata changes go through the HeapWriter;
// the volatile indexes are hints checked against the metadata read through
// the writer. Internal to runtime/palloc/.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PALLOC_HEAP_IMPL_H
#define PTM_RUNTIME_PALLOC_HEAP_IMPL_H

#include "runtime/base/spin_lock.h"
#include "runtime/palloc/heap_format.h"
#include "runtime/palloc/persistent_heap.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ptm {

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
    // Approximate, updated by allocations and frees with a plain load and
    // store (no locked instruction; two threads' updates of one chunk at
    // once may lose one): a low count costs a bitmap read when a free finds
    // the chunk looking empty (maybe_return), a high one keeps an empty
    // chunk with its arena until a resync counts its bitmap.
    std::atomic<uint32_t> used{0};
    std::atomic<uint32_t> next_word{0};
    std::atomic<uint32_t> listed{0};
    std::atomic<uint32_t> unsettled{0};
    std::atomic<uint64_t> freed_at{0};
  };
  struct alignas(64) Arena {
    // Guards AVAIL (the arena's thread, and the others' frees into its
    // chunks and steals): held for a few instructions, so a spin lock.
    SpinLock lock;
    std::vector<uint32_t>
        avail[palloc::kMaxClasses]; // chunks that may have room
    // Per class, the chunk of the arena's last allocation (kNone: none):
    // where the next one looks first, without the lock. A hint like the
    // others, checked against the metadata (try_alloc_in).
    std::atomic<uint32_t> hot[palloc::kMaxClasses];
    Arena() {
      for (auto &h : hot)
        h.store(palloc::kNone, std::memory_order_relaxed);
    }
    // Chunks of the frees this arena's thread applied since it last settled
    // or parked (only that thread touches it).
    std::vector<uint32_t> unsettled;
    // Frees parked behind a tag (PersistentHeap::park_frees), oldest first:
    // a ring of PARKED_COUNT batches from PARKED_FIRST (only the arena's
    // thread touches it).
    std::vector<uint32_t> parked[kMaxParked];
    uint64_t parked_tag[kMaxParked] = {};
    unsigned parked_first = 0, parked_count = 0;
    // Chunks its running transaction took (PersistentHeap::end_attempt;
    // only that thread touches it).
    std::vector<uint32_t> reserved;
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
  uint64_t *cover = nullptr; // the cover bitmap: continuation chunks
  char *data = nullptr;
  uint32_t nchunks = 0;
  size_t gran = 16;

  unsigned nclasses = 0;
  uint32_t class_size[palloc::kMaxClasses] = {};
  uint32_t class_blocks[palloc::kMaxClasses] = {};
  uint8_t class_lookup[palloc::kMaxSmall / palloc::kMinBlock + 1] =
      {}; // by ceil(size/16)

  std::unique_ptr<ChunkHint[]> hints;
  std::unique_ptr<Arena[]> arenas;

  std::mutex global;              // guards freeset, cursor
  std::vector<uint64_t> freeset;  // bit per chunk: probably free
  std::vector<uint64_t> reserved; // bit per chunk: taken by a tx in flight
  uint32_t cursor = 0;

  ReuseGate gate{}; // gate.passed null: no deferred reuse

  // ---- layout helpers
  uint64_t *state(uint32_t ch) const {
    return meta + size_t(ch) * palloc::kRecordWords;
  }
  uint64_t *bitmap(uint32_t ch) const { return state(ch) + 8; }
  uint64_t *cover_word(uint32_t ch) const { return cover + ch / 64; }
  static bool covered(uint32_t ch, uint64_t cover_word_value) {
    return cover_word_value >> (ch % 64) & 1;
  }
  // CH's state word read through the writer; for a free state word, the
  // cover bit too: a continuation chunk of a large block reads as
  // make_cont(0) (never stored), a free chunk as 0.
  uint64_t chunk_state(uint32_t ch, HeapWriter &w) const {
    uint64_t st = w.read(state(ch));
    if (st == 0 && covered(ch, w.read(cover_word(ch))))
      return palloc::make_cont(0);
    return st;
  }
  // Sets (ON) or clears the cover bits of chunks [FIRST, FIRST+N) through
  // the writer: one read and one write per cover word.
  void set_cover(uint32_t first, uint64_t n, bool on, HeapWriter &w);
  char *chunk_addr(uint32_t ch) const {
    return data + (size_t(ch) << palloc::kChunkShift);
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

  // ---- size classes, free-chunk set, arena lists (chunk_index.cpp)
  void build_classes(size_t g);

  // Free-chunk set (caller holds GLOBAL). A chunk reserved by a transaction
  // in flight never enters it (its state word still reads 0 to the others).
  void set_free(uint32_t ch) {
    if (!(reserved[ch / 64] >> (ch % 64) & 1))
      freeset[ch / 64] |= uint64_t(1) << (ch % 64);
  }
  // Reserves CH, found in the free set, for the caller (GLOBAL held).
  void reserve_locked(uint32_t ch) {
    clear_free(ch);
    reserved[ch / 64] |= uint64_t(1) << (ch % 64);
  }
  // Ends a reservation; FREE: CH goes back to the free set.
  void unreserve(uint32_t ch, bool free);
  // The claim of CH succeeded: a transaction's reservation lasts until
  // end_attempt(ARENA), a plain writer's ends now.
  void keep_reservation(uint32_t ch, unsigned arena, const HeapWriter &w);
  void clear_free(uint32_t ch) {
    freeset[ch / 64] &= ~(uint64_t(1) << (ch % 64));
  }
  bool is_free(uint32_t ch) const { return freeset[ch / 64] >> (ch % 64) & 1; }
  uint32_t find_free_from(uint32_t from) const;
  // First fit: the lowest run of N chunks marked free from chunk FROM on.
  uint32_t find_run(uint64_t n, uint32_t from) const;

  // Arena lists (take the arena lock themselves; no writer calls).
  void list_push(uint32_t ch, unsigned cls, unsigned arena);
  void list_remove(uint32_t ch, unsigned cls, unsigned arena);
  void mark_free(uint32_t ch);
  void mark_taken(uint32_t ch);

  // A hint said CH is free or belongs to some list, but its state word
  // (read through the writer) is ST: put the hints right.
  void rehome(uint32_t ch, uint64_t st);

  // Additive resynchronization of the hints with the metadata, for a
  // request that found no room (hints go stale when a transaction aborts
  // after claiming a chunk or filling one). Every free chunk goes back to
  // the free set; if there is none, every small chunk of class CLS that has
  // room and is on no list goes back to its arena's list. Reads only state
  // words, and bitmaps of CLS's unlisted chunks.
  void resync(unsigned cls, HeapWriter &w);

  // ---- deferred reuse (deferred_reuse.cpp)
  // A free into CH by ARENA's thread, before its transaction's commit point.
  void hold(uint32_t ch, unsigned arena);
  void settle(unsigned arena, uint64_t stamp);
  // The chunks of V: their frees settled with STAMP; V emptied.
  void settle_chunks(std::vector<uint32_t> &v, uint64_t stamp);
  void park(unsigned arena, uint64_t tag);
  void settle_parked(unsigned arena, uint64_t upto, uint64_t stamp);

  // May memory freed in CH be handed out now? Called after the metadata that
  // shows the free memory was read through the writer: a free that is
  // visible there has been held (or settled) by then.
  bool reusable(uint32_t ch, Held &held);

  // ---- allocation (heap_alloc.cpp)
  // A block of CLS from CH (on OWNER's list for CLS) into *OUT: kGot; kGone
  // when CH left the list (full, or no longer a chunk of CLS); kHeld when CH
  // has room but holds memory freed too recently.
  Try try_alloc_in(uint32_t ch, unsigned cls, unsigned owner, HeapWriter &w,
                   Held &held, void **out);

  // A block of CLS from the chunks on OWNER's list, newest first, passing
  // over the ones that hold memory freed too recently.
  void *alloc_from_list(unsigned owner, unsigned cls, HeapWriter &w,
                        Held &held);

  // Takes a free chunk for (CLS, ARENA); false if none is left (or every
  // free one holds memory freed too recently).
  bool claim_chunk(unsigned cls, unsigned arena, HeapWriter &w, Held &held);

  // Allocation from other arenas' chunks of CLS (the heap is out of chunks).
  void *steal(unsigned cls, unsigned arena, HeapWriter &w, Held &held);
  void *alloc_small(unsigned cls, size_t align, unsigned arena, HeapWriter &w,
                    Held &held);
  void *alloc_large(size_t size, unsigned arena, HeapWriter &w, Held &held);

  // ---- release (heap_release.cpp)
  // After a free in a small chunk whose approximate count reached 0: give
  // the chunk back if it really is empty and its arena keeps another chunk
  // of the class.
  void maybe_return(uint32_t ch, unsigned cls, unsigned owner, HeapWriter &w);
  void release(void *ptr, unsigned arena, HeapWriter &w);

  // ---- checking (heap_check.cpp)
  bool check_chunks(std::string *error, HeapStats *stats) const;
};

} // namespace ptm

#endif // PTM_RUNTIME_PALLOC_HEAP_IMPL_H
