//===- alloc_calls.h - malloc, free and new inside a transaction *- C++ -*-===//
//
// AllocCalls<P>: the allocation entry points (__ptm_tx_malloc ...
// __ptm_tx_delete, and ptm_malloc/ptm_free inside a transaction) on top of the
// allocation model of tx_alloc.h, for heap Heap (P::TxHeap or the pool's heap).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_ALLOC_CALLS_H
#define PTM_RUNTIME_ABI_ALLOC_CALLS_H

#include "runtime/abi/barriers.h"
#include "runtime/abi/tx_alloc.h"
#include "runtime/base/events.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/tx_thread.h"

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

namespace ptm {

template <class P> struct AllocCalls {
  using Barrier = Barriers<P>;

  // ---- Allocation
  // ---------------------------------------------------------------

  template <class Heap> static void *alloc(size_t size, size_t align) {
    TxThread &tx = this_thread();
    Barrier::template barrier<Event::AllocCall>(tx);
    return tx_allocate<P, Heap>(tx, size, align);
  }

  template <class Heap> static void *alloc_zeroed(size_t nmemb, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(nmemb, size, &bytes)) {
      errno = ENOMEM;
      return nullptr;
    }
    void *ptr = alloc<Heap>(bytes, 0);
    if (ptr)
      memset(ptr, 0, bytes); // fresh: private to the transaction
    return ptr;
  }

  template <class Heap> static void release(void *ptr) {
    TxThread &tx = this_thread();
    Barrier::template barrier<Event::FreeCall>(tx);
    tx_release<P, Heap>(tx, ptr);
  }

  static void *realloc_tm(void *ptr, size_t size) {
    using Heap = typename P::TxHeap;
    if (!ptr)
      return alloc<Heap>(size, 0);
    if (size == 0) {
      release<Heap>(ptr);
      return nullptr;
    }
    void *fresh = alloc<Heap>(size, 0);
    if (!fresh)
      return nullptr; // the old block is left as it was
    size_t old_size = Heap::usable_size(ptr);
    P::read_bytes(this_thread(), fresh, ptr, old_size < size ? old_size : size);
    tx_release<P, Heap>(this_thread(), ptr);
    return fresh;
  }

  static int posix_memalign_tm(void **memptr, size_t align, size_t size) {
    if (align < sizeof(void *) || (align & (align - 1)))
      return EINVAL;
    void *ptr = alloc<typename P::TxHeap>(size, align);
    if (!ptr)
      return ENOMEM;
    TxThread &tx = this_thread();
    P::template write<uintptr_t>(tx, reinterpret_cast<uintptr_t *>(memptr),
                                 reinterpret_cast<uintptr_t>(ptr));
    return 0;
  }

  static void *new_tm(size_t size, size_t align) {
    void *ptr = alloc<typename P::TxHeap>(size ? size : 1, align);
    if (!ptr)
      throw std::bad_alloc();
    return ptr;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_ABI_ALLOC_CALLS_H
