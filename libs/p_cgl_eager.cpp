//===- p_cgl_eager.cpp - libptm_p_cgl_eager: global lock, persistent eager log
//-===//

#include "libs/p_cgl_eager_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::PCglEagerPolicy)
