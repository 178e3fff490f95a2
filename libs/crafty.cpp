//===- crafty.cpp - libptm_crafty -----------------------------------------===//
//
// Crafty (PLDI'20) in ptm: nondestructive undo logging on hardware
// transactions (Intel RTM, or the emulation of runtime/htm/htm.h with
// PTM_HTM=emulate), the single global lock where they fail or are missing;
// libs/crafty_policy.h, docs/algorithms.md "Crafty".
//
//===----------------------------------------------------------------------===//

#include "libs/crafty_policy.h"
#include "runtime/abi/abi_glue.h"

#include <cstdio>
#include <cstdlib>

namespace ptm {

struct CraftyPolicy : CraftyT<CraftyPolicy> {};

CraftyStats crafty_stats;

namespace {

// PTM_STATS: which path ran and how the hardware transactions ended.
void print_crafty_stats() {
  auto get = [](const std::atomic<uint64_t> &x) {
    return (unsigned long long)x.load(std::memory_order_relaxed);
  };
  const CraftyStats &s = crafty_stats;
  fprintf(stderr,
          "ptm: crafty htm path %s; commits: redo %llu, validate %llu, "
          "sgl %llu; redo failed %llu, validate failed %llu\n",
          htm::path_name(htm::path()), get(s.redo_commits),
          get(s.validate_commits), get(s.sgl_commits), get(s.redo_failed),
          get(s.validate_failed));
  fprintf(stderr,
          "ptm: crafty htm aborts: conflict %llu, capacity %llu, explicit "
          "%llu, other %llu\n",
          get(s.aborts[htm::kKindConflict]), get(s.aborts[htm::kKindCapacity]),
          get(s.aborts[htm::kKindExplicit]), get(s.aborts[htm::kKindOther]));
}

[[maybe_unused]] const bool registered = [] {
  htm::path(); // PTM_HTM is checked (and RTM tried) at start-up
  const char *env = getenv("PTM_STATS");
  if (env && *env && *env != '0')
    atexit(print_crafty_stats);
  return true;
}();

} // namespace
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::CraftyPolicy)
