//===- PtmPlugin.cpp - pass plugin entry point
//------------------------------===//
//
// Registers the ptm passes with the new pass manager:
//  - as the pipeline element `ptm-lower`, also named `ptm-instrument`
//    (opt -passes=...);
//  - in clang's pipelines: PtmLowerPass at PipelineStartEP. That extension
//    point runs at every optimization level, -O0 included, and in the LTO
//    pre-link pipeline, so -flto objects carry instrumented bitcode. Above
//    -O0 a short clean-up runs first (-ptm-early-cleanup, on by default):
//    SROA, EarlyCSE, loop rotation + LICM and GVN, so that loads the
//    optimizer would merge or hoist anyway become one barrier instead of
//    one per execution (a node's key count read in every iteration of a
//    search loop: once per attempt). The region markers are calls that may
//    read and write any memory, so nothing moves across them;
//  - BarrierBudgetPass (`ptm-barrier-budget`) at the start of an LTO link
//    (FullLinkTimeOptimizationEarlyEP), where the linker loads the plugin,
//    then BarrierLoopTagPass (`ptm-tag-barrier-loops`); at its end
//    (FullLinkTimeOptimizationLastEP) BarrierLoopFunctionPass
//    (`ptm-barrier-loop-functions`): BarrierLoopUnswitchPass
//    (`ptm-unswitch-barrier-loops`, a loop pass) and a CFG clean-up in the
//    functions with a tagged loop.
//
//===----------------------------------------------------------------------===//

#include "BarrierBudget.h"
#include "BarrierLoops.h"
#include "PtmInstrument.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Scalar/LoopRotation.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;

static cl::opt<bool> ClEarlyCleanup(
    "ptm-early-cleanup", cl::init(true), cl::Hidden,
    cl::desc("Above -O0, run SROA, EarlyCSE, LICM and GVN before the ptm "
             "pass, so that redundant and loop-invariant loads are "
             "instrumented once"));

// The clean-up before instrumentation (see the file comment).
static void addEarlyCleanup(ModulePassManager &MPM) {
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  FPM.addPass(SimplifyCFGPass());
  LoopPassManager LPM;
  LPM.addPass(LoopRotatePass());
  LPM.addPass(LICMPass(LICMOptions()));
  FPM.addPass(
      createFunctionToLoopPassAdaptor(std::move(LPM), /*UseMemorySSA=*/true));
  FPM.addPass(GVNPass());
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
}

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "ptm-barrier-budget") {
          MPM.addPass(ptm::BarrierBudgetPass());
          return true;
        }
        if (Name == "ptm-tag-barrier-loops") {
          MPM.addPass(ptm::BarrierLoopTagPass());
          return true;
        }
        if (Name != "ptm-instrument" && Name != "ptm-lower")
          return false;
        MPM.addPass(ptm::PtmLowerPass());
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "ptm-barrier-loop-functions")
          return false;
        FPM.addPass(ptm::BarrierLoopFunctionPass());
        return true;
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, LoopPassManager &LPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "ptm-unswitch-barrier-loops")
          return false;
        LPM.addPass(ptm::BarrierLoopUnswitchPass());
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Level != OptimizationLevel::O0 && ClEarlyCleanup)
          addEarlyCleanup(MPM);
        MPM.addPass(ptm::PtmLowerPass());
      });
  // The LTO link (the plugin loaded into the linker by ptm-config --ldflags).
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ptm::BarrierBudgetPass());
        MPM.addPass(ptm::BarrierLoopTagPass());
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (Level == OptimizationLevel::O0 || !ptm::unswitchBarrierLoops())
          return;
        MPM.addPass(
            createModuleToFunctionPassAdaptor(ptm::BarrierLoopFunctionPass()));
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ptm-instrument", LLVM_VERSION_STRING,
          registerCallbacks};
}
