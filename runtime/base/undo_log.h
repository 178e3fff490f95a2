//===- undo_log.h - old values of in-place writes ---------------*- C++ -*-===//
//
// An undo log records (address, size, old bytes) before a write is done in
// place; rollback() writes the old bytes back in reverse order, so the memory
// ends up exactly as it was when the log was cleared. Values of 1, 2, 4 and 8
// bytes are kept inline in the entry (the fast path, append_value); larger
// spans keep their old bytes in an arena (append_span).
//
// Entries inside [stack_lo, stack_hi) are skipped by rollback: that range is
// the stack of frames deeper than the transaction's checkpoint, which are dead
// after the abort and may now hold the frames doing the rollback.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_UNDO_LOG_H
#define PTM_RUNTIME_UNDO_LOG_H

#include "runtime/base/grow_buffer.h"

#include <cstdint>
#include <cstring>

namespace ptm {

// [lo, hi): a byte range of memory.
struct MemRange {
  uintptr_t lo, hi;
};

struct UndoEntry {
  void *addr;
  size_t size;   // bytes
  uint64_t data; // the old value (size <= 8) or an offset in the arena
};

struct UndoLog {
  GrowBuffer<UndoEntry> entries;
  GrowBuffer<unsigned char> arena;

  size_t size() const { return entries.size; }
  bool empty() const { return entries.empty(); }
  void clear() {
    entries.clear();
    arena.clear();
  }

  template <class T> __attribute__((always_inline)) void append_value(T *addr) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "use append_span");
    uint64_t old = 0;
    memcpy(&old, addr, sizeof(T));
    entries.push_back(UndoEntry{addr, sizeof(T), old});
  }

  void append_span(void *addr, size_t n) {
    if (n == 0)
      return;
    if (n <= sizeof(uint64_t)) {
      uint64_t old = 0;
      memcpy(&old, addr, n);
      entries.push_back(UndoEntry{addr, n, old});
      return;
    }
    size_t at = arena.extend(n);
    memcpy(&arena[at], addr, n);
    entries.push_back(UndoEntry{addr, n, at});
  }

  // Restores every logged location, newest first, then clears the log.
  // Skipped: [stack_lo, stack_hi), dead stack frames, and the KEPT ranges
  // (exception objects in flight, which must outlive the rollback).
  void rollback(const void *stack_lo = nullptr, const void *stack_hi = nullptr,
                const GrowBuffer<MemRange> *kept = nullptr) {
    auto lo = reinterpret_cast<uintptr_t>(stack_lo);
    auto hi = reinterpret_cast<uintptr_t>(stack_hi);
    for (size_t i = entries.size; i-- > 0;) {
      const UndoEntry &e = entries[i];
      auto a = reinterpret_cast<uintptr_t>(e.addr);
      if (a >= lo && a < hi)
        continue; // a dead stack frame
      if (kept && in_ranges(*kept, a))
        continue;
      if (e.size <= sizeof(uint64_t))
        memcpy(e.addr, &e.data, e.size);
      else
        memcpy(e.addr, &arena[e.data], e.size);
    }
    clear();
  }

  static bool in_ranges(const GrowBuffer<MemRange> &ranges, uintptr_t a) {
    for (size_t r = 0; r < ranges.size; ++r)
      if (a >= ranges[r].lo && a < ranges[r].hi)
        return true;
    return false;
  }

  void release() {
    entries.release();
    arena.release();
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_UNDO_LOG_H
