//===- PtmInstrument.h - the ptm instrumentation passes ---------*- C++ -*-===//
//
// Makes transactions out of PTM_BEGIN()/PTM_END() regions: every memory access
// inside a region, and inside every function reachable from one (through
// transactional clones), becomes a call of the ptm runtime ABI (ptm_abi.h).
//
// One module pass, PtmLowerPass (`ptm-lower`, also `ptm-instrument`),
// scheduled at PipelineStartEP, before any optimization, so that the
// optimizer never reasons about transactional memory across the region
// markers: clones, instrumentation, checkpoint/begin/commit with the retry
// edge and the restoring of locals, registration.
//
// Organized like LLVM's ThreadSanitizer:
//   TxRegions          which instructions of a function run in a transaction
//   CalleeClassifier   what a call inside a transaction becomes
//   CloneBuilder       which functions get transactional clones, and makes them
//   AccessInstrumenter how loads, stores, atomics, intrinsics and calls are
//                      rewritten into runtime calls
//   RegionLowering     markers into checkpoint, begin, commit and retry edge
//   LocalRestoring     locals an abort must restore
//   RuntimeCallbacks   the runtime functions, declared once, indexed by size
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_PTMINSTRUMENT_H
#define PTM_PLUGIN_PTMINSTRUMENT_H

#include "llvm/IR/PassManager.h"

namespace ptm {

struct PtmLowerPass : llvm::PassInfoMixin<PtmLowerPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  // Transactions must be instrumented at -O0 and in optnone functions too.
  static bool isRequired() { return true; }
};

// Checks M after a pass changed it: an invalid module is an internal error,
// never a miscompiled program (clang's release builds do not verify).
void verifyOrDie(llvm::Module &M, llvm::StringRef PassName);

} // namespace ptm

#endif
