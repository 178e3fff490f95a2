//===- ip_ring.cpp - libptm_ip_ring ---------------------------------------===//
//
// ring with the optimizations of the IP model (Section V: GP + coarse-grained
// logging + no per-transaction quiescence): persistent_options.h
// IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_logging.h"
#include "libs/ring_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpRingPolicy : RingT<IpRingPolicy, IpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpRingPolicy)
