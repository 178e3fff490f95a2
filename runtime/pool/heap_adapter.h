//===- heap_adapter.h - the pool's heap, as a ptm heap ----------*- C++ -*-===//
//
// The persistent heap (ptm::PersistentHeap, runtime/palloc) behind the
// three-function heap interface the transactional allocator uses
// (volatile_heap.h):
//
//   PoolHeap<P>::allocate   inside a transaction: the heap's metadata is read
//                           and written through P's barriers (TxWriter), so
//                           the transaction's log makes it atomic, undone by
//                           an abort or a crash; outside: its own transaction
//   PoolHeap<P>::release    outside a transaction: its own transaction; at
//                           depth > 0 (the glue undoing an aborted attempt's
//                           allocation) nothing: the log already undid it
//   PoolHeap<P>::free_in_tx a free of the running transaction (the policies
//                           apply the deferred frees this way inside their
//                           commit, so a free is atomic with it)
//
// Deferred reuse (runtime/stm/reuse_epoch.h): memory a transaction frees stays
// held back until the transactions that may still read it have ended. The
// thread settles its frees when its attempt leaves the pool (leave_tx); an
// allocation that finds nothing but held-back memory aborts its attempt,
// waits there and runs again (TxWriter::reuse_blocked).
//
// A pointer outside the pool (a block from before the program opened it, or
// from the ordinary heap) goes to libc: malloc_usable_size at once; free at
// once if P quiesces (its commit waited for the attempts that may read the
// block), otherwise once they have ended (deferred_free.h).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_HEAP_ADAPTER_H
#define PTM_RUNTIME_POOL_HEAP_ADAPTER_H

#include "ptm_abi.h"
#include "runtime/base/policy_base.h"
#include "runtime/base/tx_thread.h"
#include "runtime/palloc/persistent_heap.h"
#include "runtime/pool/deferred_free.h"
#include "runtime/pool/thread_slot.h"

#include <cstdlib>
#include <malloc.h>

namespace ptm {
namespace pool {

using HeapImpl = PersistentHeap;
using HeapWriterBase = HeapWriter;

// The heap of the open pool (attached by open_pool; null when none is open).
extern HeapImpl *pool_heap;

// The heap's arena of the thread's slot.
inline unsigned heap_arena(uint32_t slot) {
  return slot % PersistentHeap::kMaxThreads;
}

// Runs BODY as a transaction of the linked library through the ABI (the way
// instrumented code does); joins a running transaction.
template <class F> __attribute__((noinline)) void run_in_tx(F &&body) {
  do {
    void *buf = __ptm_tx_checkpoint();
    __ptm_setjmp(buf);
    __ptm_tx_begin("ptm pool");
    body();
  } while (__ptm_tx_commit() != 0);
}

template <class P> struct TxWriter final : HeapWriterBase {
  uint64_t read(const uint64_t *addr) override {
    return P::template read<uint64_t>(this_thread(), addr);
  }
  void write(uint64_t *addr, uint64_t value) override {
    P::template write<uint64_t>(this_thread(), addr, value);
  }
  bool in_transaction() const override { return true; }
  void reuse_blocked(uint64_t stamp) override {
    SlotHandle &s = tls_slot;
    if (stamp > s.reuse_wait)
      s.reuse_wait = stamp;
    s.heap_work = true;
    tx_conflict<P>(this_thread(), AbortCause::ReuseWait);
  }
};

template <class P> struct PoolHeap {
  static void *allocate(size_t size, size_t align) {
    if (this_thread().depth == 0) {
      void *result = nullptr;
      run_in_tx([&] { result = allocate(size, align); });
      return result;
    }
    TxWriter<P> w;
    unsigned arena = heap_arena(tls_slot.index);
    void *p = pool_heap->allocate(size, align, arena, w);
    // (chunks it took stay reserved until leave_tx: end_attempt)
    if (pool_heap->has_reservations(arena))
      tls_slot.heap_work = true;
    return p;
  }

  static void release(void *ptr) {
    if (!ptr || this_thread().depth > 0)
      return;
    if (!pool_heap || !pool_heap->contains(ptr)) {
      if constexpr (P::kQuiesce)
        free(ptr);
      else
        free_after_readers(ptr);
      return;
    }
    run_in_tx([&] { free_in_tx(ptr); });
  }

  static void free_in_tx(void *ptr) {
    if (!ptr)
      return;
    if (!pool_heap || !pool_heap->contains(ptr)) {
      free(ptr);
      return;
    }
    TxWriter<P> w;
    pool_heap->release(ptr, heap_arena(tls_slot.index), w);
    tls_slot.frees_held = tls_slot.heap_work = true;
  }

  static size_t usable_size(void *ptr) {
    if (pool_heap && pool_heap->contains(ptr))
      return pool_heap->usable_size(ptr);
    return malloc_usable_size(ptr);
  }
};

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_HEAP_ADAPTER_H
