//===- ip_cgl_lazy.cpp - libptm_ip_cgl_lazy -------------------------------===//
//
// The global-lock lazy PTM with the optimizations of the IP model (Section V):
// the GP ones + coarse-grained logging + no per-transaction quiescence:
// persistent_options.h IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/p_cgl_lazy_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpCglLazyPolicy : PCglLazyT<IpCglLazyPolicy, IpOptions> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpCglLazyPolicy)
