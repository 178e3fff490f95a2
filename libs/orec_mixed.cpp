//===- orec_mixed.cpp - libptm_orec_mixed ---===//

#include "libs/orec_mixed_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::OrecMixedPolicy)
