//===- outside_entries.h - redo entries outside the pool ---*- C++ -*-===//
//
// A lazy (redo) library buffers a write to memory outside the open pool's
// data (the stack, the DRAM heap, globals) like any other, so that reads
// see it and an abort drops it, but nothing there survives a crash: its
// entry need not be persistent. Such entries are kept here, in a volatile
// per-thread array, never in the slot's record (so they cost no log line,
// no clwb and no room in the record), and the slot log index
// (slot_log_index.h) finds them like the others: their record number has
// kOutsideRecord set. The commit writes them back under the algorithm's
// locks with the rest (PersistentRedoLog::write_back_outside); recovery
// never sees them. The array lives as long as the thread's slot handle.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSIST_OUTSIDE_ENTRIES_H
#define PTM_RUNTIME_PERSIST_OUTSIDE_ENTRIES_H

#include "runtime/base/report.h"
#include "runtime/pool/pool_format.h"

#include <cstdint>
#include <cstdlib>

namespace ptm {

struct OutsideEntries {
  // Set in a slot log index record number: the entry is here.
  static constexpr uint64_t kOutsideRecord = uint64_t(1) << 31;

  pool::LogEntry *entries = nullptr;
  uint64_t count = 0; // entries of the running attempt
  uint64_t capacity = 0;

  // A new entry (its record number, kOutsideRecord set).
  uint64_t add() {
    if (__builtin_expect(count == capacity, 0))
      grow();
    return kOutsideRecord | count++;
  }
  pool::LogEntry &at(uint64_t record) {
    return entries[record & (kOutsideRecord - 1)];
  }
  void release() {
    free(entries);
    *this = OutsideEntries();
  }

private:
  __attribute__((noinline)) void grow() {
    uint64_t n = capacity ? 2 * capacity : 64;
    auto *fresh =
        static_cast<pool::LogEntry *>(realloc(entries, n * sizeof *entries));
    if (!fresh)
      fatal("out of memory for %llu redo entries outside the pool",
            (unsigned long long)n);
    entries = fresh;
    capacity = n;
  }
};

extern __thread OutsideEntries tls_outside;

} // namespace ptm

#endif // PTM_RUNTIME_PERSIST_OUTSIDE_ENTRIES_H
