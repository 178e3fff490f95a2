//===- PtmInstrument.h - the ptm instrumentation pass -----------*- C++ -*-===//
//
// Makes transactions out of PTM_BEGIN()/PTM_END() regions: every memory access
// inside a region, and inside every function reachable from one (through
// transactional clones), becomes a call of the ptm runtime ABI (ptm_abi.h).
//
// The pass is organized like LLVM's ThreadSanitizer:
//   TxRegions         which instructions of a function run inside a transaction
//   CalleeClassifier  what a call inside a transaction becomes
//   CloneBuilder      which functions get transactional clones, and makes them
//   AccessInstrumenter how loads, stores, atomics, intrinsics and calls are
//                     rewritten into runtime calls
//   RuntimeCallbacks  the runtime functions, declared once, indexed by size
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_PTMINSTRUMENT_H
#define PTM_PLUGIN_PTMINSTRUMENT_H

#include "llvm/IR/PassManager.h"

namespace ptm {

struct PtmInstrumentPass : llvm::PassInfoMixin<PtmInstrumentPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Transactions must be instrumented at -O0 and in optnone functions too.
  static bool isRequired() { return true; }
};

} // namespace ptm

#endif
