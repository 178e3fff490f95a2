//===- gp_tlrw.cpp - libptm_gp_tlrw ---------------------------------------===//
//
// tlrw with the optimizations of the GP model (Section V): persistent_options.h
// GpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_logging.h"
#include "libs/tlrw_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct GpTlrwPolicy : TlrwT<GpTlrwPolicy, GpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::GpTlrwPolicy)
