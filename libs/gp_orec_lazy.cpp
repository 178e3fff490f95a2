//===- gp_orec_lazy.cpp - libptm_gp_orec_lazy -----------------------------===//
//
// orec_lazy with the optimizations of the GP model (Section V):
// persistent_options.h GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_lazy_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpOrecLazyPolicy : OrecLazyT<GpOrecLazyPolicy, GpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpOrecLazyPolicy)
