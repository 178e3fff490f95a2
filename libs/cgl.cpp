//===- cgl.cpp - libptm_cgl: single global lock STM with an undo log ------===//

#include "libs/cgl_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::CglPolicy)
