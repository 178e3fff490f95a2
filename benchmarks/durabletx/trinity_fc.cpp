//===- trinity_fc.cpp - libptm_trinity_fc: Trinity-VR-FC (benchmarks only) ===//

#include "benchmarks/durabletx/flat_combining_policy.h"
#include "benchmarks/durabletx/trinity_commit.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct TrinityFcPolicy
    : FlatCombiningT<TrinityFcPolicy, IpOptions, TrinityCommit> {
  // Every write into a new block goes through write() (and the block is
  // noted whole at commit anyway).
  static constexpr bool kLastAllocTracking = false;
};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::TrinityFcPolicy)

// For tests: whether the persistent copy holds [addr, addr + n) as the
// replica does (1), not (0), or has no copy of it (-1).
extern "C" int ptm_durabletx_matches(const void *addr, size_t n) {
  return ptm::TrinityCommit::Copy::durable_matches(addr, n);
}
