//===- p_orec_eager.cpp - libptm_p_orec_eager: persistent orec_eager ------===//
//
// The Listing 1 transformation of orec_eager: the same concurrency control,
// the log and status word in the thread's pool slot (persistent_logging.h).
//
//===----------------------------------------------------------------------===//

#include "libs/orec_eager_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct POrecEagerPolicy : OrecEagerT<POrecEagerPolicy, PersistentLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::POrecEagerPolicy)
