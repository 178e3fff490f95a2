//===- gp_orec_mixed.cpp - libptm_gp_orec_mixed ---------------------------===//
//
// orec_mixed with the optimizations of the GP model (Section V):
// persistent_options.h GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_mixed_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpOrecMixedPolicy : OrecMixedT<GpOrecMixedPolicy, GpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpOrecMixedPolicy)
