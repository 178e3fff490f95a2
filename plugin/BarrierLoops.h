//===- BarrierLoops.h - loops of inlined barriers, versioned ---*- C++ -*-===//
//
// A library's read barrier tests first whether the attempt has anything to
// look up (ip_cgl_lazy: whether its redo log has an entry) and, if not, is a
// plain load. Under LTO that fast path is inlined into every loop that
// reads shared memory, and the test's operand is loop-invariant whenever the
// loop writes nothing (the slow path is `pure`: LICM hoists the load of the
// log's size out of a search loop). The branch still runs at every read of
// every iteration, and it splits what would be one compare-and-load per
// level of a tree search into two paths: rbtree's lookup runs 15
// instructions per level where cgl's runs 8.
//
// Versioning the loop on that test (LLVM's non-trivial loop unswitching,
// which clang runs only at -O3, and then before the barriers are inlined)
// gives the loop a copy without barrier code for the attempt that has
// written nothing. Two passes do it in an LTO link (the plugin loaded into
// the linker, as for BarrierBudgetPass):
//  - BarrierLoopTagPass (`ptm-tag-barrier-loops`, FullLinkTimeOptimization-
//    EarlyEP, after the budget): every loop that holds a call of a barrier
//    that will be inlined gets the loop property `ptm.barrier_loop`; loop
//    metadata goes wherever the loop goes (inlined into a caller, rotated);
//  - BarrierLoopUnswitchPass (`ptm-unswitch-barrier-loops`, a loop pass at
//    FullLinkTimeOptimizationLastEP, run by BarrierLoopFunctionPass in the
//    functions that have such a loop): non-trivial unswitching of the loops
//    with that property, and only those. LLVM's cost model decides what is
//    unswitched (a loop too large to copy stays as it is).
//
// -ptm-unswitch-barrier-loops=false turns it off (opt; or
// PTM_UNSWITCH_BARRIER_LOOPS=0 in the environment of the link).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_PLUGIN_BARRIERLOOPS_H
#define PTM_PLUGIN_BARRIERLOOPS_H

#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"

namespace ptm {

// The loop property that marks a loop holding inlined barriers.
inline constexpr const char *kBarrierLoop = "ptm.barrier_loop";

// Whether the link versions barrier loops (the option and the environment).
bool unswitchBarrierLoops();

struct BarrierLoopTagPass : llvm::PassInfoMixin<BarrierLoopTagPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

// The link's end: BarrierLoopUnswitchPass and a CFG clean-up, in the
// functions that hold a loop with the property (the others are not looked
// at: no MemorySSA built for them).
struct BarrierLoopFunctionPass : llvm::PassInfoMixin<BarrierLoopFunctionPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct BarrierLoopUnswitchPass : llvm::PassInfoMixin<BarrierLoopUnswitchPass> {
  llvm::PreservedAnalyses run(llvm::Loop &L, llvm::LoopAnalysisManager &AM,
                              llvm::LoopStandardAnalysisResults &AR,
                              llvm::LPMUpdater &U);
};

} // namespace ptm

#endif
