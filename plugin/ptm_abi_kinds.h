//===- ptm_abi_kinds.h - constants shared with the runtime ------*- C++ -*-===//
//
// The plugin includes the enum of runtime/include/ptm_abi.h rather than
// repeating its values.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_PLUGIN_ABI_KINDS_H
#define PTM_PLUGIN_ABI_KINDS_H
#include "../runtime/include/ptm_abi.h"
#endif
