//===- heap_init.cpp - lay out a new pool's heap --------------------------===//

#include "runtime/pool/heap_init.h"

#include "runtime/base/report.h"
#include "runtime/palloc/persistent_heap.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/persist.h"

#include <cerrno>
#include <cstring>

namespace ptm {
namespace pool {

int format_heap_if_needed(const PoolView &view, const char *path) {
  RootDescriptor *d = view.root();
  if (d->heap_formatted == kHeapFormatted)
    return 0;
  // Blocks aligned and rounded to the logging granularity (coarse-grained
  // logging: a chunk never straddles two blocks), in every pool.
  PersistentHeap::format(view.heap(), view.heap_size(), kLogGranularity);
  if (int rc = persist::sync_range(view.heap(), view.heap_size())) {
    error("%s: cannot make the new heap durable: %s", path, strerror(-rc));
    return rc;
  }
  persist::sfence();
  d->heap_formatted = kHeapFormatted;
  persist::persist_range(&d->heap_formatted, sizeof d->heap_formatted);
  return 0;
}

} // namespace pool
} // namespace ptm
