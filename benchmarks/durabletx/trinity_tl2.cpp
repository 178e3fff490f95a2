//===- trinity_tl2.cpp - libptm_trinity_tl2: Trinity-VR-TL2 (benchmarks) --===//

#include "benchmarks/durabletx/trinity_tl2_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct TrinityTl2Policy : TrinityTl2T<TrinityTl2Policy, IpOptions> {
  // Every write into a new block goes through write() (and the block is
  // locked and noted whole at commit anyway).
  static constexpr bool kLastAllocTracking = false;
};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::TrinityTl2Policy)

// For tests: whether the persistent copy holds [addr, addr + n) as the
// replica does (1), not (0), or has no copy of it (-1).
extern "C" int ptm_durabletx_matches(const void *addr, size_t n) {
  return ptm::TrinityTl2Policy::Copy::durable_matches(addr, n);
}
