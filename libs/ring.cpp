//===- ring.cpp - libptm_ring ---===//

#include "libs/ring_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::RingPolicy)
