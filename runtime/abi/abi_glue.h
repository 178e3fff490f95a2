//===- abi_glue.h - the whole ABI from one algorithm policy -----*- C++ -*-===//
//
// Runtime<P> implements every entry point of ptm_abi.h and the transaction
// part of ptm.h on top of an algorithm policy P (see policy_base.h), and
// PTM_DEFINE_RUNTIME(P) (define_runtime.h), used once per library, defines
// the extern "C" symbols. Fast paths (barriers, checkpoint, clone lookup hits)
// are small and inline into user code under LTO; everything else is out of
// line and cold (hot_cold.h). Runtime<P> is made of:
//
//   tx_boundary.h     begin, commit, rollback and the abort path
//   uninstrumented.h  irrevocability, clone lookups, region markers
//   barriers.h        loads, stores, memory intrinsics, libc
//   alloc_calls.h     malloc, free and new inside a transaction
//
// and adds ptm_atomic, and tx_conflict, the abort path policies call.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_GLUE_H
#define PTM_RUNTIME_ABI_GLUE_H

#include "ptm.h"
#include "runtime/abi/alloc_calls.h"
#include "runtime/abi/barriers.h"
#include "runtime/abi/tx_boundary.h"
#include "runtime/abi/uninstrumented.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/policy_base.h"
#include "runtime/base/tx_thread.h"

namespace ptm {

template <class P>
struct Runtime : TxBoundary<P>, Uninstrumented<P>, Barriers<P>, AllocCalls<P> {
  using TxBoundary<P>::begin;
  using TxBoundary<P>::checkpoint;
  using TxBoundary<P>::commit;
  using Uninstrumented<P>::clone_lookup;
  using Uninstrumented<P>::region_unwind;

  // ---- ptm_atomic
  // -----------------------------------------------------------------

  struct AtomicGuard {
    int depth;
    ~AtomicGuard() { region_unwind(depth); }
  };

  static void atomic(void (*fn)(void *), void *arg);
};

// ptm_atomic: run FN(ARG) through its clone as a transaction whose checkpoint
// is in this frame.
template <class P> void Runtime<P>::atomic(void (*fn)(void *), void *arg) {
  TxThread &tx = this_thread();
  AtomicGuard guard{tx.depth};
  do {
    void *buf = checkpoint();
    __ptm_setjmp(buf);
    begin("ptm_atomic", __builtin_frame_address(0));
    auto *clone = reinterpret_cast<void (*)(void *)>(
        clone_lookup(reinterpret_cast<const void *>(fn), "ptm_atomic"));
    clone(arg);
  } while (commit() != 0);
}

template <class P>
[[noreturn]] PTM_SLOW void tx_conflict(TxThread &tx, AbortCause why) {
  Runtime<P>::conflict(tx, why);
}

} // namespace ptm

#include "runtime/abi/define_runtime.h"

#endif // PTM_RUNTIME_ABI_GLUE_H
