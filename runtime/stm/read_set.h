//===- read_set.h - the value log of value-validated reads (NOrec) -*- C++ -*-//
//
// Each read appends (address, size, the bytes it returned). validate()
// compares every entry with memory byte for byte: equal means the read would
// return the same today. Entries in the attempt's private stack (frames made
// since begin, stm_access.h) are skipped: no other thread writes them, and
// after the frame is gone the memory holds unrelated values.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_READ_SET_H
#define PTM_RUNTIME_READ_SET_H

#include "runtime/base/grow_buffer.h"
#include "runtime/stm/stm_access.h"

#include <cstdint>
#include <cstring>

namespace ptm {

struct ValueEntry {
  uintptr_t addr;
  size_t size;
  uint64_t data; // the bytes (size <= 8) or an offset in the arena
};

struct ValueLog {
  GrowBuffer<ValueEntry> entries;
  GrowBuffer<unsigned char> arena;

  void clear() {
    entries.clear();
    arena.clear();
  }
  size_t size() const { return entries.size; }

  __attribute__((always_inline)) void add(uintptr_t addr, const void *value,
                                          size_t n) {
    if (__builtin_expect(n <= 8, 1)) {
      uint64_t d = 0;
      memcpy(&d, value, n);
      entries.push_back(ValueEntry{addr, n, d});
      return;
    }
    size_t at = arena.extend(n);
    memcpy(&arena[at], value, n);
    entries.push_back(ValueEntry{addr, n, at});
  }

  // add for a value of at most 8 bytes, when the log has room (the read
  // barriers' fast path). False: nothing logged.
  template <class T>
  __attribute__((always_inline)) bool try_add(uintptr_t addr, const T &value) {
    static_assert(sizeof(T) <= 8, "a value kept in the entry");
    uint64_t d = 0;
    memcpy(&d, &value, sizeof(T));
    return entries.try_push_back(ValueEntry{addr, sizeof(T), d});
  }

  bool matches_memory(PrivateStack stack) const {
    for (size_t i = 0; i < entries.size; ++i) {
      const ValueEntry &e = entries[i];
      if (stack.contains(e.addr))
        continue;
      const void *logged =
          e.size <= 8 ? static_cast<const void *>(&e.data) : &arena[e.data];
      unsigned char now[64];
      for (size_t done = 0; done < e.size; done += sizeof now) {
        size_t k = e.size - done < sizeof now ? e.size - done : sizeof now;
        racy_copy(now, reinterpret_cast<const void *>(e.addr + done), k);
        if (memcmp(now, static_cast<const unsigned char *>(logged) + done, k))
          return false;
      }
    }
    return true;
  }

  void release() {
    entries.release();
    arena.release();
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_READ_SET_H
