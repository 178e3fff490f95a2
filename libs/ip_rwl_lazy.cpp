//===- ip_rwl_lazy.cpp - libptm_ip_rwl_lazy -------------------------------===//
//
// ip_cgl_lazy with one global readers-writer lock instead of a mutex:
// transactions read with plain loads and run in parallel until one writes;
// the writer (one at a time) keeps its writes in its redo log beside the
// readers and drains them only for its write-back (libs/global_rw_lock.h,
// docs/algorithms.md). The IP model's optimizations: IpOptions.
//
//===----------------------------------------------------------------------===//

#include "libs/p_cgl_lazy_policy.h"
#include "runtime/abi/abi_glue.h"

namespace ptm {
struct IpRwlLazyPolicy
    : PCglLazyT<IpRwlLazyPolicy, IpOptions, ReadersWriterTxLock> {};
} // namespace ptm

PTM_DEFINE_RUNTIME(ptm::IpRwlLazyPolicy)
