//===- ip_tlrw.cpp - libptm_ip_tlrw ---------------------------------------===//
//
// tlrw with the optimizations of the IP model (Section V: GP + coarse-grained
// logging + no per-transaction quiescence): persistent_options.h
// IpOptions (docs/algorithms.md).
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_logging.h"
#include "libs/tlrw_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpTlrwPolicy : TlrwT<IpTlrwPolicy, IpLogging> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpTlrwPolicy)
