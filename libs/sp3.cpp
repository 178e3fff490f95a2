//===- sp3.cpp - libptm_sp3 -----------------------------------------------===//
//
// SP3 (DAC'20): speculative parallel persistence on the IP model's orec redo
// design; libs/sp3_policy.h, runtime/pool/speculative.h, docs/algorithms.md
// "sp3".
//
//===----------------------------------------------------------------------===//

#include "libs/sp3_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::Sp3Policy)
