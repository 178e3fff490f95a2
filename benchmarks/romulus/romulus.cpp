//===- romulus.cpp - libptm_romulus: Romulus's protocol (benchmarks only) -===//

#include "benchmarks/romulus/romulus_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::RomulusPolicy)

// For tests: the back copy of pool address ADDR (null before the first
// writing transaction, or outside the pool).
extern "C" const void *ptm_romulus_back(const void *addr) {
  return ptm::RomulusPolicy::back_of(addr);
}
