//===- PtmPlugin.cpp - pass plugin entry point ------------------------------===//
//
// Registers the ptm instrumentation pass with the new pass manager:
//  - as the pipeline element `ptm-instrument` (opt -passes=ptm-instrument);
//  - at the end of the optimization pipeline (OptimizerLastEP), which runs at
//    every optimization level, in the LTO pre-link pipeline and at -O0, the
//    way ThreadSanitizer is scheduled.
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
        if (Name != "ptm-instrument")
          return false;
        MPM.addPass(ptm::PtmInstrumentPass());
        return true;
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(ptm::PtmInstrumentPass());
      });
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ptm-instrument", LLVM_VERSION_STRING,
          registerCallbacks};
}
