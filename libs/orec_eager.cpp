//===- orec_eager.cpp - libptm_orec_eager: encounter-time locking, undo ---===//

#include "libs/orec_eager_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::OrecEagerPolicy)
