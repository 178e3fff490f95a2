//===- ip_orec_mixed.cpp - libptm_ip_orec_mixed ---------------------------===//
//
// orec_mixed with the optimizations of the IP model (Section V): the GP
// ones + coarse-grained logging + no per-transaction quiescence:
// persistent_options.h IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_mixed_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpOrecMixedPolicy : OrecMixedT<IpOrecMixedPolicy, IpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpOrecMixedPolicy)
