//===- p_ring.cpp - libptm_p_ring: persistent ring ------------------------===//
//
// The Listing 1 transformation of ring: the same concurrency control,
// the log and status word in the thread's pool slot (persistent_logging.h).
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_logging.h"
#include "libs/ring_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct PRingPolicy : RingT<PRingPolicy, PersistentLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::PRingPolicy)
