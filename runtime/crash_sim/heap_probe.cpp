//===- heap_probe.cpp - the open pool's heap, for crash-test checkers -----===//
//
// Part of the crash-simulator variants only: lets a checker (C, linked with
// libptm_<NAME>_crashsim) verify the recovered heap in process instead of
// running `ptm-pool check` and `ptm-pool info` per crash image.
//
//===----------------------------------------------------------------------===//

#include "runtime/crash_sim/simulator.h"
#include "runtime/pool/heap_adapter.h"

#include <cstdio>
#include <string>

extern "C" int ptm_crash_sim_heap(uint64_t *blocks, char *why, size_t n) {
  using ptm::pool::pool_heap;
  if (!pool_heap) {
    snprintf(why, n, "no pool is open");
    return -1;
  }
  std::string problem;
  if (!pool_heap->check(&problem)) {
    snprintf(why, n, "the heap is damaged: %s", problem.c_str());
    return -1;
  }
  *blocks = pool_heap->stats().blocks_allocated;
  return 0;
}
