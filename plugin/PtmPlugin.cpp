//===- PtmPlugin.cpp - pass plugin entry point
//------------------------------===//
//
// Registers the ptm passes with the new pass manager:
//  - as pipeline elements `ptm-instrument` (both phases), `ptm-lower` and
//    `ptm-locals` (opt -passes=...);
//  - in clang's pipelines: PtmLowerPass at PipelineStartEP, before any
//    optimization, and PtmLocalsPass at OptimizerLastEP. Both extension points
//    run at every optimization level, -O0 included, and in the LTO pre-link
//    pipeline, so -flto objects carry instrumented bitcode.
//
//===----------------------------------------------------------------------===//

#include "PtmInstrument.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

static void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "ptm-instrument")
          MPM.addPass(ptm::PtmInstrumentPass());
        else if (Name == "ptm-lower")
          MPM.addPass(ptm::PtmLowerPass());
        else if (Name == "ptm-locals")
          MPM.addPass(ptm::PtmLocalsPass());
        else
          return false;
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ptm::PtmLowerPass());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ptm::PtmLocalsPass());
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ptm-instrument", LLVM_VERSION_STRING,
          registerCallbacks};
}
