//===- quadra_fc.cpp - libptm_quadra_fc: Quadra-VR-FC (benchmarks only) ---===//

#include "benchmarks/durabletx/flat_combining_policy.h"
#include "benchmarks/durabletx/quadra_commit.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct QuadraFcPolicy
    : FlatCombiningT<QuadraFcPolicy, IpOptions, QuadraCommit> {
  // Every write into a new block goes through write() (and the block is
  // noted whole at commit anyway).
  static constexpr bool kLastAllocTracking = false;
};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::QuadraFcPolicy)

// For tests: whether the persistent copy holds [addr, addr + n) as the
// replica does (1), not (0), or has no copy of it (-1).
extern "C" int ptm_durabletx_matches(const void *addr, size_t n) {
  return ptm::QuadraCommit::Copy::durable_matches(addr, n);
}
