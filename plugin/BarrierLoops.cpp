//===- BarrierLoops.cpp - loops of inlined barriers, versioned ------------===//
//
// See BarrierLoops.h.
//
//===----------------------------------------------------------------------===//

#include "BarrierLoops.h"
#include "LibraryBarriers.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/SimpleLoopUnswitch.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <cstdlib>
#include <cstring>

using namespace llvm;

static cl::opt<bool> ClUnswitch(
    "ptm-unswitch-barrier-loops", cl::init(true),
    cl::desc("version the loops that hold inlined barriers on their "
             "loop-invariant tests (PTM_UNSWITCH_BARRIER_LOOPS=0 in the "
             "environment turns it off)"));

namespace ptm {

bool unswitchBarrierLoops() {
  const char *Env = std::getenv("PTM_UNSWITCH_BARRIER_LOOPS");
  if (Env && std::strcmp(Env, "0") == 0)
    return false;
  return ClUnswitch;
}

PreservedAnalyses BarrierLoopTagPass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  if (!unswitchBarrierLoops())
    return PreservedAnalyses::all();
  SmallPtrSet<const Function *, 10> Barriers;
  for (Function *F : libraryBarriers(M))
    Barriers.insert(F);
  if (Barriers.empty())
    return PreservedAnalyses::all();

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || Barriers.count(&F))
      continue;
    // The blocks holding a barrier call that the link will inline (not one
    // the budget left out of line), in the function's order.
    SmallVector<BasicBlock *, 16> Blocks;
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Barriers.count(CB->getCalledFunction()) && !CB->isNoInline() &&
            (Blocks.empty() || Blocks.back() != CB->getParent()))
          Blocks.push_back(CB->getParent());
    if (Blocks.empty())
      continue;
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(F);
    SmallPtrSet<Loop *, 8> Seen;
    for (BasicBlock *BB : Blocks)
      for (Loop *L = LI.getLoopFor(BB); L && Seen.insert(L).second;
           L = L->getParentLoop())
        if (!getBooleanLoopAttribute(L, kBarrierLoop)) {
          addStringMetadataToLoop(L, kBarrierLoop, 1);
          Changed = true;
        }
  }
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA; // (metadata of branches only)
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

PreservedAnalyses BarrierLoopUnswitchPass::run(Loop &L, LoopAnalysisManager &AM,
                                               LoopStandardAnalysisResults &AR,
                                               LPMUpdater &U) {
  if (!getBooleanLoopAttribute(&L, kBarrierLoop))
    return PreservedAnalyses::all();
  return SimpleLoopUnswitchPass(/*NonTrivial=*/true).run(L, AM, AR, U);
}

// Some loop of F has the property (in its latch's loop ID).
static bool hasBarrierLoop(const Function &F) {
  for (const BasicBlock &BB : F)
    if (const Instruction *T = BB.getTerminator())
      if (MDNode *ID = T->getMetadata(LLVMContext::MD_loop))
        if (findOptionMDForLoopID(ID, kBarrierLoop))
          return true;
  return false;
}

PreservedAnalyses BarrierLoopFunctionPass::run(Function &F,
                                               FunctionAnalysisManager &AM) {
  if (!hasBarrierLoop(F))
    return PreservedAnalyses::all();
  LoopPassManager LPM;
  LPM.addPass(BarrierLoopUnswitchPass());
  FunctionPassManager FPM;
  FPM.addPass(createFunctionToLoopPassAdaptor(std::move(LPM),
                                              /*UseMemorySSA=*/true));
  FPM.addPass(SimplifyCFGPass());
  return FPM.run(F, AM);
}

} // namespace ptm
