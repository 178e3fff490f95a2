//===- p_tlrw.cpp - libptm_p_tlrw: persistent tlrw ------------------------===//
//
// The Listing 1 transformation of tlrw: the same concurrency control,
// the log and status word in the thread's pool slot (persistent_logging.h).
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_logging.h"
#include "libs/tlrw_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct PTlrwPolicy : TlrwT<PTlrwPolicy, PersistentLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::PTlrwPolicy)
