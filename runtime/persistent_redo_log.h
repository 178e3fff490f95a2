//===- persistent_redo_log.h - redo log in the thread's pool slot -*- C++
//-*-===//
//
// The lazy side of Listing 1 (paper, Section III-A), on the thread's slot.
// A write buffers its bytes in the slot's entries (one per 8-byte word, with
// a byte mask; a second write of the same word merges into its entry); a
// volatile per-thread hash index finds a word's entry, so reads see the
// transaction's own writes. Nothing is flushed before commit:
//
//   commit   clwb every entry; sfence;
//            redo_count, commit_order, then status = redo-committed | gen;
//            clwb (one line); sfence;
//            write back every entry (masked), clwb each word; sfence;
//            status = idle | gen; clwb; sfence
//
// Per committed transaction with W distinct words: 2W+2 clwb and 4 sfence;
// a read-only transaction flushes and fences nothing. The slot's status line
// is written count and order first, status last: stores to one line reach
// memory in order (x86-TSO), so a durable "committed" implies its count.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSISTENT_REDO_LOG_H
#define PTM_RUNTIME_PERSISTENT_REDO_LOG_H

#include "runtime/persist.h"
#include "runtime/persistent_undo_log.h"
#include "runtime/pool/pool_format.h"
#include "runtime/pool/thread_slot.h"
#include "runtime/stats.h"
#include "runtime/tx_thread.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ptm {

// Word address -> entry index, for the running transaction (entries whose
// stamp is not the current one are empty: clearing is one increment).
struct RedoIndex {
  struct Bucket {
    uint64_t word;
    uint32_t entry;
    uint32_t stamp;
  };
  Bucket *buckets = nullptr;
  uint64_t mask = 0;
  uint32_t stamp = 1;
  uint64_t summary = 0; // bit (hash >> 58) per word logged: a quick miss
};

extern __thread RedoIndex tls_redo_index;

struct PersistentRedoLog {
  static void begin(pool::SlotHandle &s) {
    ++s.gen;
    s.count = 0;
    RedoIndex &ix = tls_redo_index;
    if (__builtin_expect(ix.mask + 1 < 2 * s.capacity, 0))
      grow_index(ix, s.capacity);
    ix.summary = 0;
    if (++ix.stamp == 0) { // wrapped: really clear
      memset(ix.buckets, 0, (ix.mask + 1) * sizeof(RedoIndex::Bucket));
      ix.stamp = 1;
    }
  }

  static void discard(pool::SlotHandle &s) {
    stat_add(this_thread().stats->log_entries, s.count);
    s.count = 0;
  }

  // Buffers the N bytes at SRC as the new contents of [addr, addr + n).
  static void write(pool::SlotHandle &s, void *addr, const void *src,
                    size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    const auto *bytes = static_cast<const unsigned char *>(src);
    for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
      uint8_t mask = word_mask(word, lo, hi);
      pool::LogEntry &e = entry_for(s, word);
      unsigned char data[8];
      memcpy(data, &e.data, 8);
      for (unsigned i = 0; i < 8; ++i)
        if (mask & (1u << i))
          data[i] = bytes[word + i - lo];
      uint64_t value;
      memcpy(&value, data, 8);
      uint64_t meta = pool::entry_meta(uint8_t(e.meta | mask), s.gen);
      e.meta = meta;
      e.data = value;
      e.check = pool::entry_check(word, meta, value);
    }
  }

  // Copies [addr, addr + n) as the transaction sees it into DST.
  static void read(const pool::SlotHandle &s, void *dst, const void *addr,
                   size_t n) {
    memcpy(dst, addr, n);
    if (s.count != 0)
      overlay(s, dst, addr, n);
  }

  // False if no word of [addr, addr + n) can be in the log (a quick test).
  __attribute__((always_inline)) static bool
  may_contain(const pool::SlotHandle &s, uintptr_t addr, size_t n) {
    if (s.count == 0)
      return false;
    uint64_t bits = 0;
    for (uintptr_t word = addr & ~uintptr_t(7); word < addr + n; word += 8)
      bits |= summary_bit(word);
    return tls_redo_index.summary & bits;
  }

  // Overlays the logged bytes of [addr, addr + n) onto DST (which holds what
  // memory had). Returns true if every byte came from the log.
  static bool overlay(const pool::SlotHandle &s, void *dst, const void *addr,
                      size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    auto *out = static_cast<unsigned char *>(dst);
    bool all = true;
    for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
      uint8_t want = word_mask(word, lo, hi);
      const pool::LogEntry *e =
          tls_redo_index.summary & summary_bit(word) ? find(s, word) : nullptr;
      if (!e) {
        all = false;
        continue;
      }
      uint8_t mask = uint8_t(e->meta) & want;
      if (mask != want)
        all = false;
      unsigned char data[8];
      memcpy(data, &e->data, 8);
      for (unsigned i = 0; i < 8; ++i)
        if (mask & (1u << i))
          out[word + i - lo] = data[i];
    }
    return all;
  }

  // Listing 1, Commit.Lazy (after the algorithm's locks and validation).
  // Words in [skip_lo, skip_hi) (the attempt's private stack frames, which
  // may now hold the frames doing the commit) are logged but not written
  // back; recovery ignores them (they are outside the pool).
  static void commit(pool::SlotHandle &s, uint64_t order, uintptr_t skip_lo = 0,
                     uintptr_t skip_hi = 0) {
    if (!publish(s, order))
      return;
    write_back(s, skip_lo, skip_hi, /*flush=*/true);
    persist::sfence();
    mark_idle(s);
  }

  // Deferred flushing (paper IV-D), under the locks: as commit up to the
  // write-back, which issues no clwb. False: nothing was logged (nothing to
  // finish). The caller releases its locks, then calls finish_deferred.
  static bool commit_deferred(pool::SlotHandle &s, uint64_t order,
                              uintptr_t skip_lo, uintptr_t skip_hi) {
    if (!publish(s, order))
      return false;
    write_back(s, skip_lo, skip_hi, /*flush=*/false);
    return true;
  }

  // Deferred flushing, locks released: clwb every written word (a later
  // writer's value, if one has locked and changed the word since, is what
  // goes back: it is newer), sfence, status idle, clwb, sfence. Same counts
  // as commit: 2W+2 clwb, 4 sfence. BEFORE_IDLE runs after the sfence.
  template <class F>
  static void finish_deferred(pool::SlotHandle &s, uintptr_t skip_lo,
                              uintptr_t skip_hi, F &&before_idle) {
    for (uint64_t i = 0; i < s.count; ++i) {
      uintptr_t a = s.entries[i].addr;
      if (a < skip_lo || a >= skip_hi)
        persist::clwb(reinterpret_cast<const void *>(a));
    }
    persist::sfence();
    before_idle();
    mark_idle(s);
  }

private:
  // Flush the entries, sfence, count + order + status committed, clwb,
  // sfence. False (and nothing done) when the log is empty.
  static bool publish(pool::SlotHandle &s, uint64_t order) {
    uint64_t w = s.count;
    stat_add(this_thread().stats->log_entries, w);
    if (w == 0)
      return false;
    for (uint64_t i = 0; i < w; ++i)
      persist::clwb(&s.entries[i]);
    persist::sfence();
    s.hdr->redo_count = w;
    s.hdr->commit_order = order;
    __atomic_store_n(&s.hdr->status,
                     pool::slot_status(pool::kRedoCommitted, s.gen),
                     __ATOMIC_RELEASE);
    persist::clwb(s.hdr);
    persist::sfence();
    return true;
  }

  static void write_back(pool::SlotHandle &s, uintptr_t skip_lo,
                         uintptr_t skip_hi, bool flush) {
    for (uint64_t i = 0; i < s.count; ++i) {
      const pool::LogEntry &e = s.entries[i];
      if (e.addr >= skip_lo && e.addr < skip_hi)
        continue;
      auto *word = reinterpret_cast<unsigned char *>(e.addr);
      uint8_t mask = uint8_t(e.meta);
      if (mask == 0xff) {
        memcpy(word, &e.data, 8);
      } else {
        unsigned char data[8];
        memcpy(data, &e.data, 8);
        for (unsigned b = 0; b < 8; ++b)
          if (mask & (1u << b))
            word[b] = data[b];
      }
      if (flush)
        persist::clwb(word);
    }
  }

  static void mark_idle(pool::SlotHandle &s) {
    __atomic_store_n(&s.hdr->status, pool::slot_status(pool::kIdle, s.gen),
                     __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->status);
    persist::sfence();
    s.count = 0;
  }

  static uint64_t hash(uint64_t word) {
    return (word >> 3) * 0x9e3779b97f4a7c15ull >> 20;
  }
  static uint64_t summary_bit(uint64_t word) {
    return 1ull << ((word >> 3) * 0x9e3779b97f4a7c15ull >> 58);
  }

  static const pool::LogEntry *find(const pool::SlotHandle &s, uint64_t word) {
    const RedoIndex &ix = tls_redo_index;
    for (uint64_t h = hash(word);; ++h) {
      const RedoIndex::Bucket &b = ix.buckets[h & ix.mask];
      if (b.stamp != ix.stamp)
        return nullptr;
      if (b.word == word)
        return &s.entries[b.entry];
    }
  }

  static pool::LogEntry &entry_for(pool::SlotHandle &s, uint64_t word) {
    RedoIndex &ix = tls_redo_index;
    for (uint64_t h = hash(word);; ++h) {
      RedoIndex::Bucket &b = ix.buckets[h & ix.mask];
      if (b.stamp == ix.stamp) {
        if (b.word == word)
          return s.entries[b.entry];
        continue;
      }
      if (__builtin_expect(s.count == s.capacity, 0))
        slot_log_overflow(s);
      b.word = word;
      b.entry = uint32_t(s.count);
      b.stamp = ix.stamp;
      ix.summary |= summary_bit(word);
      pool::LogEntry &e = s.entries[s.count++];
      e.addr = word;
      e.meta = pool::entry_meta(0, s.gen);
      e.data = 0;
      return e;
    }
  }

  __attribute__((noinline)) static void grow_index(RedoIndex &ix,
                                                   uint64_t capacity) {
    uint64_t n = 64;
    while (n < 2 * capacity)
      n *= 2;
    free(ix.buckets);
    ix.buckets =
        static_cast<RedoIndex::Bucket *>(calloc(n, sizeof(RedoIndex::Bucket)));
    if (!ix.buckets)
      fatal("out of memory for a redo log index of %llu words",
            (unsigned long long)capacity);
    ix.mask = n - 1;
    ix.stamp = 1;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_PERSISTENT_REDO_LOG_H
