//===- scratch.h - private buffers that survive an abort's longjmp -*- C++ -*-//
//
// Scratch: a private buffer for the transactional libc functions (a copy of
// a string for strtol, the elements qsort sorts, the text snprintf formats).
// A transaction may abort while one is in use (a barrier or a comparator
// longjmps past its destructor), so the memory is not malloc'ed per call,
// where an abort would leak it: each thread keeps a few buffers and reuses
// them. A buffer is held by a Scratch of one attempt of a transaction; an
// abort ends the attempt, so a buffer whose holder belongs to an earlier
// attempt is free whether or not its destructor ran. Only when every buffer
// is held in the running attempt (a comparator that formats while its qsort
// holds buffers, ...) is a buffer malloc'ed and freed per use.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_SCRATCH_H
#define PTM_RUNTIME_ABI_SCRATCH_H

#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ptm {

struct ScratchSlot {
  char *buf;
  size_t cap;
  bool held;
  uint64_t attempt; // TxThread::attempts_started when it was taken
};
struct ScratchSlots {
  ScratchSlot slot[4];
  ~ScratchSlots() {
    for (ScratchSlot &s : slot)
      free(s.buf);
  }
};

class Scratch {
public:
  explicit Scratch(size_t n) {
    const uint64_t attempt = this_thread().attempts_started;
    for (Slot &s : slots_.slot) {
      if (s.held && s.attempt == attempt)
        continue; // held by a caller in this attempt
      slot_ = &s;
      s.held = true;
      s.attempt = attempt;
      if (s.cap < n)
        grow_slot(s, n, 0);
      data_ = s.buf;
      return;
    }
    data_ = static_cast<char *>(malloc(n ? n : 1));
    if (!data_)
      fatal("out of memory for a private buffer of %zu bytes", n);
    cap_ = n;
  }
  ~Scratch() {
    if (slot_)
      slot_->held = false;
    else
      free(data_);
  }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;

  char *data() const { return data_; }

  // Makes room for N bytes, keeping the first KEEP.
  void reserve(size_t n, size_t keep) {
    if (slot_) {
      if (slot_->cap < n)
        grow_slot(*slot_, n, keep);
      data_ = slot_->buf;
      return;
    }
    if (cap_ >= n)
      return;
    auto *p = static_cast<char *>(realloc(data_, n));
    if (!p)
      fatal("out of memory for a private buffer of %zu bytes", n);
    data_ = p;
    cap_ = n;
  }

private:
  using Slot = ScratchSlot;
  static inline thread_local ScratchSlots slots_;

  static void grow_slot(Slot &s, size_t n, size_t keep) {
    size_t cap = s.cap ? s.cap : 256;
    while (cap < n)
      cap *= 2;
    auto *p = static_cast<char *>(malloc(cap));
    if (!p)
      fatal("out of memory for a private buffer of %zu bytes", n);
    if (keep)
      memcpy(p, s.buf, keep);
    free(s.buf);
    s.buf = p;
    s.cap = cap;
  }

  Slot *slot_ = nullptr;
  char *data_ = nullptr;
  size_t cap_ = 0;
};

} // namespace ptm

#endif // PTM_RUNTIME_ABI_SCRATCH_H
