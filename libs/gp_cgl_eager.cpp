//===- gp_cgl_eager.cpp - libptm_gp_cgl_eager -----------------------------===//
//
// The global-lock eager PTM with the optimizations of the GP model (Section V):
// persistent_options.h GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/p_cgl_eager_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpCglEagerPolicy : PCglEagerT<GpCglEagerPolicy, GpOptions> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpCglEagerPolicy)
