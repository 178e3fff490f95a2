//===- slot_log_index.h - index of the slot log's entries -------*- C++ -*-===//
//
// A volatile per-thread index over the entries the running transaction has
// put in its pool slot (persistent_redo_log.h, persistent_undo_log.h): key ->
// record number of the entry, where a key is the 8-byte word of a word entry
// or the chunk address of a chunk entry (coarse-grained logging, paper IV-B).
// Open addressing with linear probing, load <= 1/2; entries whose stamp is
// not the current one are empty, so clearing is one increment. The table in
// use starts at kMinBuckets (4 KiB, in L1) at every reset and doubles within
// the transaction as keys come (rehashed from KEYS); the allocation behind it
// is sized once for the slot's capacity. (A table of the slot's full size,
// 256 KiB, put each new key on a cache miss: perf showed 69% of
// bptree_insert.ip_orec_lazy's write_coarse on that one load.) KEYS lists the
// entries in the order they were made (the lazy algorithms lock their write
// set from it, the log ring writes its record back from it), a chunk entry's
// marked kChunkKey; LAST_KEYS keeps them for the thread's last committed
// record (keep_last: the log ring flushes its data lines at the next commit);
// SUMMARY is a 512-bit filter of the keys (a quick miss; its 64-bit fold is
// deferred flushing's overlap test), by the block of SUMMARY_MASK that holds
// each key: 8 bytes (a word entry's key), or, with coarse-grained logging, a
// chunk (set_summary_grain), so that a barrier tests any address against it
// with one AND instead of first telling the chunk space from the rest
// (PersistentRedoLog::entry_key); a word entry outside the chunk space then
// covers its chunk in the filter, which only the rare access next to it pays
// for with a lookup.
//
// The chunk space: the open pool's heap region [chunk_lo, chunk_hi), where
// coarse-grained logging uses chunk entries; every other address (stack,
// globals, DRAM, the pool's root descriptor) keeps word entries.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_SLOT_LOG_INDEX_H
#define PTM_RUNTIME_SLOT_LOG_INDEX_H

#include "runtime/base/key_summary.h"
#include "runtime/base/report.h"
#include "runtime/base/word_hash.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ptm {

struct SlotLogIndex {
  struct Bucket {
    uint64_t key;
    uint32_t record;
    uint32_t stamp;
  };
  struct Key {
    uint64_t key;
    uint64_t record; // in KEYS and LAST_KEYS: | kChunkKey for a chunk entry
  };
  static constexpr uint64_t kChunkKey = uint64_t(1) << 63;
  static constexpr uint64_t kMinBuckets = 256;
  Bucket *buckets = nullptr;
  uint64_t mask = 0;      // of the table in use
  uint64_t allocated = 0; // buckets allocated (and KEYS' capacity)
  uint32_t stamp = 1;
  KeySummary summary; // the keys logged (key_summary.h), by block
  uint64_t summary_mask = ~uint64_t(7); // a key's block: its 8-byte word
  Key *keys = nullptr; // the entries in order (capacity: ALLOCATED)
  uint64_t nkeys = 0;
  Key *last_keys = nullptr; // KEYS at the last keep_last (same capacity)
  uint64_t nlast = 0;

  // A new, empty index able to hold CAPACITY entries (an allocation grown
  // far beyond it by a log extension, reserve, is given back).
  void reset(uint64_t capacity) {
    if (__builtin_expect(allocated < 2 * capacity || allocated > 64 * capacity,
                         0))
      allocate(capacity);
    if (nkeys != 0)
      summary.clear();
    nkeys = 0;
    mask = kMinBuckets - 1;
    next_stamp();
  }

  // Right after reset: the table in use sized at once for about N keys
  // (within the allocation), for a writer that knows roughly how many its
  // record will hold (the buffered persister's records of thousands of
  // keys, which would otherwise double the table from kMinBuckets a dozen
  // times, rehashing every key each time).
  void presize(uint64_t n) {
    while (2 * n > mask + 1 && 2 * (mask + 1) <= allocated)
      mask = 2 * mask + 1;
  }

  // The filter's grain: G-byte blocks (a power of two, >= 8; a chunk for
  // coarse-grained logging). The keys already in the index are filed again
  // if it changes (once per thread: one library per process).
  void set_summary_grain(uint64_t g) {
    uint64_t m = ~(g - 1);
    if (__builtin_expect(summary_mask == m, 1))
      return;
    summary_mask = m;
    summary.clear();
    for (uint64_t i = 0; i < nkeys; ++i)
      summary.add(keys[i].key & m);
  }

  // False if no key of the index lies in the block of address A (a quick
  // test for any address: a word's or a chunk's).
  __attribute__((always_inline)) bool may_contain_block(uint64_t a) const {
    return summary.may_contain(a & summary_mask);
  }

  // Record of KEY's entry, or -1.
  __attribute__((always_inline)) int64_t find(uint64_t key) const {
    if (!may_contain_block(key))
      return -1;
    for (uint64_t h = hash(key);; ++h) {
      const Bucket &b = buckets[h & mask];
      if (b.stamp != stamp)
        return -1;
      if (b.key == key)
        return b.record;
    }
  }

  // Adds KEY (absent) with its entry at RECORD (CHUNK: a chunk entry).
  void insert(uint64_t key, uint64_t record, bool chunk = false) {
    if (__builtin_expect(2 * (nkeys + 1) > mask + 1, 0))
      enlarge();
    place(key, record);
    summary.add(key & summary_mask);
    keys[nkeys++] = Key{key, chunk ? record | kChunkKey : record};
  }

  // The keys listed so far become LAST_KEYS (a committed record's).
  void keep_last() {
    memcpy(last_keys, keys, nkeys * sizeof(Key));
    nlast = nkeys;
  }

  // Room for CAPACITY entries, the keys kept.
  __attribute__((noinline, cold)) void reserve(uint64_t capacity) {
    if (allocated >= 2 * capacity)
      return;
    uint64_t n = allocated ? allocated : kMinBuckets;
    while (n < 2 * capacity)
      n *= 2;
    auto *b = static_cast<Bucket *>(calloc(n, sizeof(Bucket)));
    auto *k = static_cast<Key *>(realloc(keys, n * sizeof(Key)));
    auto *l =
        k ? static_cast<Key *>(realloc(last_keys, n * sizeof(Key))) : nullptr;
    if (!b || !k || !l)
      fatal("out of memory for a slot log index of %llu entries",
            (unsigned long long)capacity);
    free(buckets);
    buckets = b;
    keys = k;
    last_keys = l;
    allocated = n;
    stamp = 1;
    for (uint64_t i = 0; i < nkeys; ++i)
      place(keys[i].key, keys[i].record & ~kChunkKey);
  }

  void release() {
    free(buckets);
    free(keys);
    free(last_keys);
    *this = SlotLogIndex();
  }

private:
  static uint64_t hash(uint64_t key) { return word_hash(key) >> 20; }

  void place(uint64_t key, uint64_t record) {
    for (uint64_t h = hash(key);; ++h) {
      Bucket &b = buckets[h & mask];
      if (b.stamp == stamp)
        continue;
      b.key = key;
      b.record = uint32_t(record);
      b.stamp = stamp;
      return;
    }
  }

  // Empties every bucket of the allocation.
  void next_stamp() {
    if (++stamp == 0) { // wrapped: really clear
      memset(buckets, 0, allocated * sizeof(Bucket));
      stamp = 1;
    }
  }

  // Doubles the table in use, and the allocation if the table fills it (a
  // transaction with more keys than its slot has entries: its log extends,
  // log_extension.h, or it wrote that many words outside the pool).
  __attribute__((noinline, cold)) void enlarge() {
    if (2 * (mask + 1) > allocated)
      reserve(allocated);
    mask = 2 * mask + 1;
    next_stamp();
    for (uint64_t i = 0; i < nkeys; ++i)
      place(keys[i].key, keys[i].record & ~kChunkKey);
  }

  __attribute__((noinline)) void allocate(uint64_t capacity) {
    uint64_t n = kMinBuckets;
    while (n < 2 * capacity)
      n *= 2;
    free(buckets);
    free(keys);
    buckets = static_cast<Bucket *>(calloc(n, sizeof(Bucket)));
    keys = static_cast<Key *>(malloc(n * sizeof(Key)));
    Key *last = static_cast<Key *>(malloc(n * sizeof(Key)));
    if (!buckets || !keys || !last)
      fatal("out of memory for a slot log index of %llu entries",
            (unsigned long long)capacity);
    if (nlast != 0) // (a larger slot: the last record's keys kept)
      memcpy(last, last_keys, nlast * sizeof(Key));
    free(last_keys);
    last_keys = last;
    allocated = n;
    stamp = 1;
  }
};

extern __thread SlotLogIndex tls_log_index;

// The chunk space (see above); both 0 while no pool is open.
extern uintptr_t chunk_lo, chunk_hi;

__attribute__((always_inline)) inline bool in_chunk_space(uintptr_t a,
                                                          size_t n) {
  return a >= chunk_lo && a + n <= chunk_hi;
}

} // namespace ptm

#endif // PTM_RUNTIME_SLOT_LOG_INDEX_H
