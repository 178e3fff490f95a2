//===- slot_lease.h - thread slots leased to running transactions -*- C++
//-*-===//
//
// The pool's side of thread_slot.h's leases (docs/pool.md "Deploying"):
// which thread holds which slot, the line of threads waiting for one, and
// the slots of the runtime's own threads. Every function here runs with
// pool_mutex held (persistent_pool.cpp), except claim_slot and
// give_slot_back, which take it.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_SLOT_LEASE_H
#define PTM_RUNTIME_POOL_SLOT_LEASE_H

#include "runtime/pool/thread_slot.h"

#include <mutex>

namespace ptm {
namespace pool {

// Guards opening, closing and the leases.
extern std::recursive_mutex pool_mutex;

// A pool was opened: every slot is free.
void reset_slot_leases();
// The pool is closing (no transaction inside): threads in line wake up and
// find it closed.
void end_slot_leases();

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_SLOT_LEASE_H
