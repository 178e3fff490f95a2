//===- gp_cgl_lazy.cpp - libptm_gp_cgl_lazy -------------------------------===//
//
// The global-lock lazy PTM with the optimizations of the GP model (Section V):
// persistent_options.h GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/p_cgl_lazy_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpCglLazyPolicy : PCglLazyT<GpCglLazyPolicy, GpOptions> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpCglLazyPolicy)
