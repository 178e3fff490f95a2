//===- norec.cpp - libptm_norec ---===//

#include "libs/norec_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::NorecPolicy)
