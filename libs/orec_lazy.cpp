//===- orec_lazy.cpp - libptm_orec_lazy ---===//

#include "libs/orec_lazy_policy.h"
#include "runtime/abi/abi_glue.h"

PTM_DEFINE_RUNTIME(ptm::OrecLazyPolicy)
