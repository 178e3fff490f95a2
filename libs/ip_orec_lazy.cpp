//===- ip_orec_lazy.cpp - libptm_ip_orec_lazy -----------------------------===//
//
// orec_lazy with the optimizations of the IP model (Section V): the GP
// ones + coarse-grained logging + no per-transaction quiescence:
// persistent_options.h IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_lazy_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpOrecLazyPolicy : OrecLazyT<IpOrecLazyPolicy, IpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpOrecLazyPolicy)
