//===- FrontendAction.cpp - `clang -fplugin=` entry point
//-------------------===//
//
// With `-fplugin=libptm_plugin.so` clang loads that library, which loads this
// one (FrontendLoader.cpp); clang then runs the action below before the main
// action. It adds the library itself to the code
// generator's pass plugins, so that the one flag enables the instrumentation
// pass (PtmPlugin.cpp) at every optimization level, with and without -flto.
//
// It also makes libstdc++'s std::string and std::wstring members part of
// the unit: libstdc++ declares them `extern template` (instantiated in
// libstdc++.so, where the plugin never sees them, so a transaction could not
// call them). When <bits/c++config.h> defines _GLIBCXX_EXTERN_TEMPLATE as 1,
// the action redefines it as -1, libstdc++'s own setting (the one
// _GLIBCXX_ASSERTIONS uses) that drops only basic_string's explicit
// instantiation declarations: the members used are instantiated in the unit
// (linkonce_odr) and get transactional clones. See docs/ABI.md.
//
//===----------------------------------------------------------------------===//

#include "LibraryDirectory.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

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

// Redefines libstdc++'s _GLIBCXX_EXTERN_TEMPLATE from 1 to -1 right after
// <bits/c++config.h> defines it (a definition on the command line would be
// overridden there).
class StringInstantiation : public PPCallbacks {
public:
  explicit StringInstantiation(Preprocessor &PP) : PP(PP) {}

  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    IdentifierInfo *II = Name.getIdentifierInfo();
    if (!II || II->getName() != "_GLIBCXX_EXTERN_TEMPLATE")
      return;
    const MacroInfo *Old = MD->getMacroInfo();
    if (Old->getNumTokens() != 1 || !Old->getReplacementToken(0).isLiteral() ||
        PP.getSpelling(Old->getReplacementToken(0)) != "1")
      return; // 0, -1, or not libstdc++'s: left alone
    SourceLocation Loc = Old->getDefinitionLoc();
    Token Body[2];
    Body[0].startToken();
    Body[0].setKind(tok::minus);
    PP.CreateString("-", Body[0]);
    Body[1].startToken();
    Body[1].setKind(tok::numeric_constant);
    PP.CreateString("1", Body[1]);
    MacroInfo *MI = PP.AllocateMacroInfo(Loc);
    MI->setTokens(Body, PP.getPreprocessorAllocator());
    MI->setDefinitionEndLoc(Old->getDefinitionEndLoc());
    MI->setIsUsed(true); // no "macro defined but not used" warning
    PP.appendDefMacroDirective(II, MI, Loc);
  }

private:
  Preprocessor &PP;
};

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
    if (CI.getLangOpts().CPlusPlus && CI.hasPreprocessor())
      CI.getPreprocessor().addPPCallbacks(
          std::make_unique<StringInstantiation>(CI.getPreprocessor()));
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
