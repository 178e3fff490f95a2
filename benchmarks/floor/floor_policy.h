//===- floor_policy.h - the physical floor of a durable commit --*- C++ -*-===//
//
// Not a PTM: a measuring device for the benchmarks (bench/<bench>.floor).
// What any durable transaction must pay at the least on this machine: the
// program's own work, one global lock (cgl: reads are plain loads, writes
// store in place with the volatile undo log that ptm_restart needs), and at
// commit a clwb of every distinct cache line the transaction wrote and ONE
// sfence. No log reaches memory, so nothing here survives a crash: a
// persistent library within a small factor of this is close to the
// hardware's cost (issue 15's "physical floor"; scripts/floor.py reports
// both).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_FLOOR_POLICY_H
#define PTM_BENCH_FLOOR_POLICY_H

#include "libs/cgl_policy.h"
#include "runtime/base/grow_buffer.h"
#include "runtime/persist/persist.h"

#include <algorithm>

namespace ptm {

struct FloorPolicy : CglPolicy {
  // The lines the running transaction wrote (with repeats).
  static inline thread_local GrowBuffer<uintptr_t> lines;

  static void note(const void *addr, size_t n) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    for (uintptr_t l = a & ~uintptr_t(63); l < a + n; l += 64)
      if (lines.size == 0 || lines[lines.size - 1] != l)
        lines.push_back(l);
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    CglPolicy::write(tx, addr, value);
    note(addr, sizeof value);
  }
  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    CglPolicy::write_bytes(tx, tm, priv, n);
    note(tm, n);
  }

  static bool commit(TxThread &tx) {
    if (lines.size != 0) {
      std::sort(lines.data, lines.data + lines.size);
      uintptr_t *end = std::unique(lines.data, lines.data + lines.size);
      for (uintptr_t *l = lines.data; l != end; ++l)
        persist::clwb(reinterpret_cast<const void *>(*l));
      persist::sfence();
      lines.clear();
    }
    return CglPolicy::commit(tx);
  }
  static void rollback(TxThread &tx) {
    lines.clear();
    CglPolicy::rollback(tx);
  }
};

} // namespace ptm

#endif // PTM_BENCH_FLOOR_POLICY_H
