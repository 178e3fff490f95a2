//===- ip_cgl_eager.cpp - libptm_ip_cgl_eager -----------------------------===//
//
// The global-lock eager PTM with the optimizations of the IP model (Section V):
// the GP ones + coarse-grained logging + no per-transaction quiescence:
// persistent_options.h IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/p_cgl_eager_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpCglEagerPolicy : PCglEagerT<IpCglEagerPolicy, IpOptions> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpCglEagerPolicy)
