//===- open_checks.cpp - what an open requires of a recovered pool --------===//

#include "runtime/pool/open_checks.h"

#include "runtime/base/report.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>

namespace ptm {
namespace pool {

std::string root_problem(const PoolView &v, const PersistentHeap &heap) {
  const RootDescriptor *r = v.root();
  char buf[200];
  if (r->offset == 0 && r->size == 0)
    return "";
  if (r->offset == 0) {
    snprintf(buf, sizeof buf,
             "the root descriptor is damaged: no root object, but a size of "
             "%" PRIu64 " bytes",
             r->size);
    return buf;
  }
  const uint64_t lo = v.header.heap_offset, hi = v.header.pool_size;
  if (r->offset < lo || r->offset >= hi || r->size == 0 ||
      r->size > hi - r->offset ||
      heap.usable_size(v.base + r->offset) < r->size) {
    snprintf(buf, sizeof buf,
             "the root descriptor does not name a heap block (offset %" PRIu64
             ", %" PRIu64 " bytes)",
             r->offset, r->size);
    return buf;
  }
  return "";
}

std::string unformatted_problem(const PoolView &v) {
  const RootDescriptor *r = v.root();
  char buf[200];
  if (r->heap_formatted != 0) {
    snprintf(buf, sizeof buf,
             "the root descriptor is damaged: its heap mark is 0x%" PRIx64
             ", neither formatted nor new",
             r->heap_formatted);
    return buf;
  }
  if (r->offset != 0 || r->size != 0)
    return "the root descriptor is damaged: the heap is marked as not "
           "formatted yet, but there is a root object";
  for (uint32_t i = 0; i < v.header.slot_count; ++i)
    if (v.slot(i)->claim_gen != 0) {
      snprintf(buf, sizeof buf,
               "the root descriptor is damaged: the heap is marked as not "
               "formatted yet, but thread slot %u has run transactions",
               i);
      return buf;
    }
  return "";
}

int check_recovered_pool(const PoolView &v, const char *path,
                         PersistentHeap *heap) {
  if (v.root()->heap_formatted != kHeapFormatted) {
    std::string problem = unformatted_problem(v);
    if (problem.empty())
      return 0;
    error("%s: %s", path, problem.c_str());
    return -EIO;
  }
  std::string problem;
  if (!heap->attach(v.heap(), v.heap_size(), &problem)) {
    error("%s: the heap is damaged: %s", path, problem.c_str());
    return -EIO;
  }
  if (heap->granularity() < kLogGranularity) {
    error("%s: the heap's blocks are aligned to %zu bytes, this library logs "
          "%llu-byte chunks (PTM_LOG_GRANULARITY) and needs blocks aligned to "
          "them; create the pool with a build of the same or a larger "
          "granularity",
          path, heap->granularity(), (unsigned long long)kLogGranularity);
    return -EINVAL;
  }
  problem = root_problem(v, *heap);
  if (!problem.empty()) {
    error("%s: %s", path, problem.c_str());
    return -EIO;
  }
  return 0;
}

} // namespace pool
} // namespace ptm
