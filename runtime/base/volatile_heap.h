//===- volatile_heap.h - the ordinary heap, as a ptm heap -------*- C++ -*-===//
//
// The heap interface the transactional allocator is written against: a
// persistent library supplies a pool heap with the same three functions.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_VOLATILE_HEAP_H
#define PTM_RUNTIME_VOLATILE_HEAP_H

#include <cstddef>
#include <cstdlib>
#include <malloc.h>

namespace ptm {

struct VolatileHeap {
  // ALIGN 0 (or at most the malloc alignment) means malloc's alignment.
  static void *allocate(size_t size, size_t align) {
    if (align <= alignof(max_align_t))
      return malloc(size);
    return aligned_alloc(align, size);
  }
  static void release(void *ptr) { free(ptr); }
  static size_t usable_size(void *ptr) { return malloc_usable_size(ptr); }
};

} // namespace ptm

#endif // PTM_RUNTIME_VOLATILE_HEAP_H
