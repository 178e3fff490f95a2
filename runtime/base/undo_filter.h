//===- undo_filter.h - locations the undo log already holds -----*- C++ -*-===//
//
// An undo log needs only the oldest value of a location: rollback writes the
// entries back newest first, so the first entry of a location is the one
// whose bytes remain. A transaction that writes the same fields again and
// again (an interpreter's registers, a cursor, a page header) logs each of
// them at every write without a filter: SQLite's batch of 200 inserts in one
// transaction made 3.2 million undo entries (77 MB) under cgl.
//
// UndoFilter is a direct-mapped table of the (address, size) pairs the
// running attempt has logged, tagged with the attempt's generation. A hit
// means the log holds an entry for exactly that location, so the write needs
// none; a miss says nothing (the caller logs the location and the filter
// records it, replacing what the slot held). start() begins a generation,
// which forgets every pair at once: call it whenever the log is cleared, and
// before the attempt's first write.
//
// Per thread, in static TLS (constant-initialized, trivially destructible,
// like TxThread): the table is allocated by the first start() and freed at
// thread exit.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_UNDO_FILTER_H
#define PTM_RUNTIME_UNDO_FILTER_H

#include "runtime/base/thread_exit_key.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace ptm {

struct UndoFilter {
  static constexpr unsigned kBits = 12; // 4096 slots, 64 KiB per thread
  struct Slot {
    uintptr_t addr;
    uint64_t tag; // generation * 16 + size (sizes are 1 to 8)
  };
  Slot *slots = nullptr;
  uint64_t generation = 0; // times 16

  void start() {
    if (__builtin_expect(slots == nullptr, 0))
      allocate();
    generation += 16;
  }

  // True: [a, a + n) is logged already in this generation. Otherwise
  // records it (the caller logs it) and returns false. N is 1, 2, 4 or 8.
  __attribute__((always_inline)) bool logged_or_record(uintptr_t a, size_t n) {
    Slot &s = slots[(a * 0x9E3779B97F4A7C15ull) >> (64 - kBits)];
    uint64_t tag = generation + n;
    if (s.addr == a && s.tag == tag)
      return true;
    s.addr = a;
    s.tag = tag;
    return false;
  }

private:
  static void on_thread_exit(void *arg) {
    auto *f = static_cast<UndoFilter *>(arg);
    free(f->slots);
    f->slots = nullptr;
  }
  __attribute__((noinline, cold)) void allocate() {
    slots = static_cast<Slot *>(calloc(size_t{1} << kBits, sizeof(Slot)));
    if (!slots)
      fatal("out of memory for the undo filter");
    ThreadExitKey<on_thread_exit>::set(this);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_UNDO_FILTER_H
