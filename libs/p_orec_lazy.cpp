//===- p_orec_lazy.cpp - libptm_p_orec_lazy: persistent orec_lazy ---------===//
//
// The Listing 1 transformation of orec_lazy: the same concurrency control,
// the log and status word in the thread's pool slot (persistent_logging.h).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_lazy_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct POrecLazyPolicy : OrecLazyT<POrecLazyPolicy, PersistentLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::POrecLazyPolicy)
