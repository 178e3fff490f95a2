//===- gp_ring.cpp - libptm_gp_ring ---------------------------------------===//
//
// ring with the optimizations of the GP model (Section V): persistent_options.h
// GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_logging.h"
#include "libs/ring_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpRingPolicy : RingT<GpRingPolicy, GpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpRingPolicy)
