//===- FrontendAction.cpp - `clang -fplugin=` entry point
//-------------------===//
//
// With `-fplugin=libptm_plugin.so` clang loads that library, which loads this
// one (FrontendLoader.cpp); clang then runs the action below before the main
// action. It adds the library itself to the code
// generator's pass plugins, so that the one flag enables the instrumentation
// pass (PtmPlugin.cpp) at every optimization level, with and without -flto.
//
//===----------------------------------------------------------------------===//

#include "LibraryDirectory.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

#include <algorithm>
#include <memory>
#include <string>

using namespace clang;

namespace {

// Path of the pass plugin, libptm_plugin.so, which sits beside this library
// (libptm_plugin_frontend.so, loaded by it: see FrontendLoader.cpp).
std::string pluginPath() {
  std::string Dir =
      ptm::libraryDirectoryOf(reinterpret_cast<void *>(&pluginPath));
  return Dir.empty() ? Dir : Dir + "/libptm_plugin.so";
}

class PtmFrontendAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    std::string Path = pluginPath();
    if (Path.empty()) {
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "ptm: cannot locate the plugin library to "
                                 "register its instrumentation pass"));
    } else {
      std::vector<std::string> &Plugins = CI.getCodeGenOpts().PassPlugins;
      if (std::find(Plugins.begin(), Plugins.end(), Path) == Plugins.end())
        Plugins.push_back(Path);
    }
    return std::make_unique<ASTConsumer>();
  }

  bool ParseArgs(const CompilerInstance &,
                 const std::vector<std::string> &) override {
    return true;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }
};

} // namespace

static FrontendPluginRegistry::Add<PtmFrontendAction>
    X("ptm", "ptm: instrument transactions for a ptm runtime library");
