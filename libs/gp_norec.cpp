//===- gp_norec.cpp - libptm_gp_norec -------------------------------------===//
//
// norec with the optimizations of the GP model (Section V):
// persistent_options.h GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/norec_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpNorecPolicy : NorecT<GpNorecPolicy, GpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpNorecPolicy)
