//===- p_cgl_lazy.cpp - libptm_p_cgl_lazy: global lock, persistent lazy log
//-===//

#include "libs/p_cgl_lazy_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::PCglLazyPolicy)
