//===- floor.cpp - libptm_floor: the physical floor (benchmarks only) -----===//

#include "benchmarks/floor/floor_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::FloorPolicy)
