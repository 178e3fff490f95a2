//===- ip_norec.cpp - libptm_ip_norec -------------------------------------===//
//
// norec with the optimizations of the IP model (Section V): the GP
// ones + coarse-grained logging + no per-transaction quiescence:
// persistent_options.h IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/norec_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpNorecPolicy : NorecT<IpNorecPolicy, IpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpNorecPolicy)
