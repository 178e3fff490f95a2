//===- p_norec.cpp - libptm_p_norec: persistent norec ---------------------===//
//
// The Listing 1 transformation of norec: the same concurrency control,
// the log and status word in the thread's pool slot (persistent_logging.h).
//
//===----------------------------------------------------------------------===//

#include "libs/norec_policy.h"
#include "libs/persistent_logging.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct PNorecPolicy : NorecT<PNorecPolicy, PersistentLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::PNorecPolicy)
