//===- PtmPlugin.cpp - pass plugin entry point
//------------------------------===//
//
// Registers the ptm passes with the new pass manager:
//  - as the pipeline element `ptm-lower`, also named `ptm-instrument`
//    (opt -passes=...);
//  - in clang's pipelines: PtmLowerPass at PipelineStartEP, before any
//    optimization. That extension point runs at every optimization level, -O0
//    included, and in the LTO pre-link pipeline, so -flto objects carry
//    instrumented bitcode.
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
        if (Name != "ptm-instrument" && Name != "ptm-lower")
          return false;
        MPM.addPass(ptm::PtmLowerPass());
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ptm::PtmLowerPass());
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ptm-instrument", LLVM_VERSION_STRING,
          registerCallbacks};
}
