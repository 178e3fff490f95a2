//===- gp_orec_eager.cpp - libptm_gp_orec_eager ---------------------------===//
//
// orec_eager with the optimizations of the GP model (Section V):
// persistent_options.h GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_eager_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpOrecEagerPolicy : OrecEagerT<GpOrecEagerPolicy, GpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpOrecEagerPolicy)
