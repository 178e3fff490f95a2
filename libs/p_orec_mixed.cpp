//===- p_orec_mixed.cpp - libptm_p_orec_mixed: persistent orec_mixed ------===//
//
// The Listing 1 transformation of orec_mixed: the same concurrency control,
// the log and status word in the thread's pool slot (persistent_logging.h).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_mixed_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct POrecMixedPolicy : OrecMixedT<POrecMixedPolicy, PersistentLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::POrecMixedPolicy)
