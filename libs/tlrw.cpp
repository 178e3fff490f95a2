//===- tlrw.cpp - libptm_tlrw ---===//

#include "libs/tlrw_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::TlrwPolicy)
