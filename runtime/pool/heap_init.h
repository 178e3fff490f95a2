//===- heap_init.h - lay out a new pool's heap ------------------*- C++ -*-===//
//
// A new pool's heap region is formatted at its first open (by the library or
// `ptm-pool create`), at the pool's address: the empty metadata is made
// durable (msync of the written pages, which does not fault in the untouched
// sparse region), then RootDescriptor::heap_formatted is set and persisted.
// A crash in between formats again (no transaction can have run).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_HEAP_INIT_H
#define PTM_RUNTIME_POOL_HEAP_INIT_H

#include "runtime/pool/pool_view.h"

namespace ptm {
namespace pool {

// 0, or -errno with `ptm: error: <path>: ...`.
int format_heap_if_needed(const PoolView &view, const char *path);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_HEAP_INIT_H
