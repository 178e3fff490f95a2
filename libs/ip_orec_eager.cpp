//===- ip_orec_eager.cpp - libptm_ip_orec_eager ---------------------------===//
//
// orec_eager with the optimizations of the IP model (Section V): the GP
// ones + coarse-grained logging + no per-transaction quiescence:
// persistent_options.h IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_eager_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpOrecEagerPolicy : OrecEagerT<IpOrecEagerPolicy, IpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpOrecEagerPolicy)
