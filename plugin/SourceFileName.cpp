//===- SourceFileName.cpp - no build-machine path in installed bitcode ----===//
//
// A pass plugin used only while building ptm (never installed): the runtime's
// objects are LLVM bitcode, installed in the libptm_NAME.a archives, and a
// bitcode module records the path its compiler was given for its source file
// (source_filename), which -ffile-prefix-map does not change. Loaded with
// -fpass-plugin when compiling the runtime, this pass rewrites a
// source_filename under the source or build tree (PTM_SOURCE_DIR,
// PTM_BINARY_DIR, defined by plugin/CMakeLists.txt) to the path relative to
// that tree, as -ffile-prefix-map does for the debug info.
//
//===----------------------------------------------------------------------===//

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include <string>

using namespace llvm;

namespace {

// Path relative to the tree when Path is inside it (Tree ends with '/').
bool stripTree(std::string &Path, StringRef Tree) {
  if (!StringRef(Path).starts_with(Tree))
    return false;
  Path = Path.substr(Tree.size());
  return true;
}

struct SourceFileNamePass : PassInfoMixin<SourceFileNamePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::string Name = M.getSourceFileName();
    // The build tree may lie inside the source tree: try it first.
    if (stripTree(Name, PTM_BINARY_DIR "/") ||
        stripTree(Name, PTM_SOURCE_DIR "/"))
      M.setSourceFileName(Name);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(SourceFileNamePass());
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ptm-source-file-name", LLVM_VERSION_STRING,
          registerCallbacks};
}
