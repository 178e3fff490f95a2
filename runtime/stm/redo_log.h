//===- redo_log.h - buffered writes of the lazy STMs ------------*- C++ -*-===//
//
// The write set of a redo-logging transaction: one entry per 8-byte granule
// written, holding the granule's new bytes and a mask of which bytes the
// transaction wrote (accesses may be 1, 2 bytes or unaligned; unwritten bytes
// of the granule are never written back, they may belong to someone else).
//
// Lookups (read-after-write) go through a 512-bit summary filter
// (key_summary.h: a miss costs one AND) and then an open-addressing hash index
// over the entries (linear probing, load <= 1/2, grown by rehashing). clear()
// is O(entries). try_put is the writes' inline fast path (an aligned access, no
// growth).
//
// write_back() stores the logged bytes to memory (whole granules as one
// 8-byte store, partial ones byte by byte), skipping a private stack range.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_REDO_LOG_H
#define PTM_RUNTIME_REDO_LOG_H

#include "runtime/base/grow_buffer.h"
#include "runtime/base/key_summary.h"
#include "runtime/base/word_hash.h"
#include "runtime/stm/stm_access.h"

#include <cstdint>
#include <cstring>

namespace ptm {

struct RedoEntry {
  uintptr_t granule; // aligned address
  uint64_t value;    // the granule's bytes as written (valid where mask)
  uint32_t mask;     // bit i: byte i was written
};

struct RedoLog {
  GrowBuffer<RedoEntry> entries;
  uint32_t *index = nullptr; // slot: entry number + 1, 0 = empty
  size_t index_size = 0;     // power of two
  KeySummary summary;        // the granules logged

  bool empty() const { return entries.empty(); }
  size_t size() const { return entries.size; }
  uintptr_t granule(size_t i) const { return entries[i].granule; }

  static uint64_t hash(uintptr_t granule) { return word_hash(granule); }

  __attribute__((always_inline)) bool may_contain(uintptr_t granule) const {
    return summary.may_contain(granule);
  }

  // False: no byte of [a, a + n) is logged (the summary says so).
  bool may_overlap(uintptr_t a, size_t n) const {
    for (uintptr_t g = granule_of(a); g < a + n; g += kGranule)
      if (summary.may_contain(g))
        return true;
    return false;
  }

  // The logged value of a T at A within one granule, if the log has every
  // byte of it (read-after-write).
  template <class T> bool try_get(uintptr_t a, T &value) {
    uintptr_t g = granule_of(a);
    RedoEntry *e = find(g);
    unsigned off = static_cast<unsigned>(a - g);
    uint32_t want = ((1u << sizeof(T)) - 1) << off;
    if (!e || (e->mask & want) != want)
      return false;
    memcpy(&value, reinterpret_cast<const unsigned char *>(&e->value) + off,
           sizeof(T));
    return true;
  }

  __attribute__((always_inline)) RedoEntry *find(uintptr_t granule) {
    if (!may_contain(granule))
      return nullptr;
    size_t mask = index_size - 1;
    for (size_t i = hash(granule) & mask;; i = (i + 1) & mask) {
      uint32_t e = index[i];
      if (e == 0)
        return nullptr;
      if (entries[e - 1].granule == granule)
        return &entries[e - 1];
    }
  }

  // Logs N bytes (within one granule) of SRC for address A.
  void put_piece(uintptr_t a, const void *src, size_t n) {
    uintptr_t g = granule_of(a);
    unsigned off = static_cast<unsigned>(a - g);
    RedoEntry *e = find(g);
    if (!e)
      e = insert(g);
    memcpy(reinterpret_cast<unsigned char *>(&e->value) + off, src, n);
    e->mask |= ((1u << n) - 1) << off;
  }

  // The inline fast path of put for a T at A within one granule: the
  // granule's entry is updated, or made when the entries and the index have
  // room and A is not in the attempt's private STACK (whose writes the
  // caller makes in place: stm_access.h). False: nothing was done.
  template <class T>
  __attribute__((always_inline)) bool try_put(uintptr_t a, const T &value,
                                              PrivateStack stack) {
    uintptr_t g = granule_of(a);
    RedoEntry *e = find(g);
    if (!e) {
      if (__builtin_expect(!entries.has_room() ||
                               (entries.size + 1) * 2 > index_size ||
                               stack.contains(g),
                           0))
        return false;
      e = append(g);
    }
    unsigned off = static_cast<unsigned>(a - g);
    memcpy(reinterpret_cast<unsigned char *>(&e->value) + off, &value,
           sizeof(T));
    e->mask |= ((1u << sizeof(T)) - 1) << off;
    return true;
  }

  // put of a T at A (RedoCore's write_slow).
  template <class T> void put_value(uintptr_t a, const T &value) {
    put(a, &value, sizeof(T));
  }

  void put(uintptr_t addr, const void *src, size_t n) {
    auto *s = static_cast<const unsigned char *>(src);
    for_each_granule(addr, n, [&](uintptr_t a, size_t k, size_t at) {
      put_piece(a, s + at, k);
    });
  }

  // Overlays the logged bytes of [addr, addr+n) onto DST (which holds what
  // memory had). Returns true if every byte came from the log.
  bool overlay(void *dst, uintptr_t addr, size_t n) {
    auto *d = static_cast<unsigned char *>(dst);
    bool all = true;
    for_each_granule(addr, n, [&](uintptr_t a, size_t k, size_t at) {
      uintptr_t g = granule_of(a);
      RedoEntry *e = find(g);
      if (!e) {
        all = false;
        return;
      }
      unsigned off = static_cast<unsigned>(a - g);
      auto *v = reinterpret_cast<const unsigned char *>(&e->value);
      for (size_t i = 0; i < k; ++i) {
        if (e->mask & (1u << (off + i)))
          d[at + i] = v[off + i];
        else
          all = false;
      }
    });
    return all;
  }

  // Stores the logged bytes; entries in [skip_lo, skip_hi) are dropped.
  void write_back(uintptr_t skip_lo, uintptr_t skip_hi) {
    for (size_t i = 0; i < entries.size; ++i) {
      const RedoEntry &e = entries[i];
      if (e.granule >= skip_lo && e.granule < skip_hi)
        continue;
      if (e.mask == 0xff) {
        __atomic_store_n(reinterpret_cast<uint64_t *>(e.granule), e.value,
                         __ATOMIC_RELAXED);
        continue;
      }
      auto *v = reinterpret_cast<const unsigned char *>(&e.value);
      for (unsigned b = 0; b < 8; ++b) {
        if (!(e.mask & (1u << b)))
          continue;
        auto *p = reinterpret_cast<unsigned char *>(e.granule + b);
        __atomic_store_n(p, v[b], __ATOMIC_RELAXED);
      }
    }
  }

  void clear() {
    if (entries.size) {
      if (entries.size * 8 < index_size) {
        size_t mask = index_size - 1;
        for (size_t i = 0; i < entries.size; ++i)
          for (size_t j = hash(entries[i].granule) & mask;; j = (j + 1) & mask)
            if (index[j] == i + 1) {
              index[j] = 0;
              break;
            }
      } else {
        memset(index, 0, index_size * sizeof *index);
      }
      summary.clear();
    }
    entries.clear();
  }

  void release() {
    entries.release();
    free(index);
    index = nullptr;
    index_size = 0;
    summary.clear();
  }

private:
  __attribute__((noinline)) void rehash(size_t size) {
    auto *fresh = static_cast<uint32_t *>(calloc(size, sizeof(uint32_t)));
    if (!fresh)
      fatal("out of memory growing a redo log index");
    free(index);
    index = fresh;
    index_size = size;
    for (size_t i = 0; i < entries.size; ++i)
      place(i);
  }

  void place(size_t i) {
    size_t mask = index_size - 1;
    size_t j = hash(entries[i].granule) & mask;
    while (index[j])
      j = (j + 1) & mask;
    index[j] = static_cast<uint32_t>(i + 1);
  }

  RedoEntry *insert(uintptr_t g) {
    if ((entries.size + 1) * 2 > index_size)
      rehash(index_size ? index_size * 2 : 64);
    entries.push_back(RedoEntry{g, 0, 0});
    place(entries.size - 1);
    summary.add(g);
    return &entries[entries.size - 1];
  }
  // insert, when the entries and the index have room.
  __attribute__((always_inline)) RedoEntry *append(uintptr_t g) {
    size_t i = entries.size;
    entries.push_back_in_room(RedoEntry{g, 0, 0});
    size_t mask = index_size - 1;
    size_t j = hash(g) & mask;
    while (index[j])
      j = (j + 1) & mask;
    index[j] = static_cast<uint32_t>(i + 1);
    summary.add(g);
    return &entries[i];
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_REDO_LOG_H
