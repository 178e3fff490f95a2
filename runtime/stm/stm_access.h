//===- stm_access.h - memory access helpers of the concurrent STMs -*- C++ -*-//
//
// Granules: the concurrent STMs track memory in aligned 8-byte granules (one
// redo entry, one bloom-filter bit per granule; an orec covers one or more,
// orec_table.h). An access of N bytes at any address covers one or more
// granules; for_each_granule splits it. Bytes outside the access are never
// written: redo entries carry a byte mask, undo entries exact spans.
//
// racy_copy: loads of memory other threads may be writing concurrently; the
// algorithms decide afterwards (versions, values, signatures) whether what
// was read is usable. The signal fences keep the compiler from moving the
// loads across the metadata checks around them.
//
// The private stack: frames created after the transaction began lie in
// [TxThread::stack_lo, TxThread::stack_mark) (the whole stack below the mark,
// not just the part above the current stack pointer: the commit's own
// callees run below it). They are private to the attempt, dead after it, and
// may be reused by later frames of the same attempt: value-based validation
// skips them and write-back does not write them (they may now hold the
// frames doing the commit). The redo algorithms write them in place and log
// nothing there (RedoCore::write_slow): an entry left by a frame that
// returned would be served to a later frame at the same address, whose own
// bytes were stored by code that no barrier sees (a prologue's spill of the
// register arguments, va_start, the stack arguments of a call).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_STM_ACCESS_H
#define PTM_RUNTIME_STM_ACCESS_H

#include "runtime/base/tx_thread.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ptm {

constexpr uintptr_t kGranule = 8;

__attribute__((always_inline)) inline uintptr_t granule_of(uintptr_t a) {
  return a & ~(kGranule - 1);
}

// [a, a + n) lies in one granule: the case the barriers' fast paths handle
// (aligned accesses of 1, 2, 4 and 8 bytes).
__attribute__((always_inline)) inline bool in_one_granule(uintptr_t a,
                                                          size_t n) {
  return (a & (kGranule - 1)) + n <= kGranule;
}

// Calls F(addr, n, offset) for each piece of [addr, addr+n) within one
// aligned B-byte block (B a power of two); offset is the position of the
// piece in the access. for_each_granule: B = kGranule.
template <uintptr_t B, class F>
__attribute__((always_inline)) inline void for_each_block(uintptr_t addr,
                                                          size_t n, F f) {
  size_t done = 0;
  while (done < n) {
    uintptr_t a = addr + done;
    size_t room = B - (a & (B - 1));
    size_t piece = n - done < room ? n - done : room;
    f(a, piece, done);
    done += piece;
  }
}
template <class F>
__attribute__((always_inline)) inline void for_each_granule(uintptr_t addr,
                                                            size_t n, F f) {
  for_each_block<kGranule>(addr, n, f);
}

// The bytes whose conflicts an access must detect (Logging::conflict_span):
// the access itself, or with coarse-grained logging its whole chunks.
struct AccessSpan {
  uintptr_t lo;
  size_t n;
};

__attribute__((always_inline)) inline void racy_copy(void *dst, const void *src,
                                                     size_t n) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  memcpy(dst, src, n);
  std::atomic_signal_fence(std::memory_order_seq_cst);
}

// [lo, hi): the stack frames created since the transaction began (see above),
// as seen from the caller of this function.
struct PrivateStack {
  uintptr_t lo, hi;
  static __attribute__((always_inline)) PrivateStack of(const TxThread &tx) {
    return PrivateStack{reinterpret_cast<uintptr_t>(tx.stack_lo),
                        reinterpret_cast<uintptr_t>(tx.stack_mark)};
  }
  bool contains(uintptr_t a) const { return a >= lo && a < hi; }
  // The N bytes at A lie in these frames.
  bool holds(uintptr_t a, size_t n) const {
    return a >= lo && a < hi && n <= hi - a;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_STM_ACCESS_H
