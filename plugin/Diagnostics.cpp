//===- Diagnostics.cpp - compiler warnings of the ptm pass
//------------------===//

#include "Diagnostics.h"

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;

namespace ptm {

std::string describeLocation(const Instruction &I) {
  if (const DILocation *Loc = I.getDebugLoc().get()) {
    std::string S = Loc->getFilename().str();
    S += ":" + std::to_string(Loc->getLine());
    if (Loc->getColumn())
      S += ":" + std::to_string(Loc->getColumn());
    return S;
  }
  return "function '" + I.getFunction()->getName().str() + "'";
}

void warnAt(const Instruction &I, const Twine &Message) {
  const Function &F = *I.getFunction();
  std::string Text = ("ptm: " + Message).str();
  // Without debug information, name the function (clang prints no location).
  if (!I.getDebugLoc())
    Text += " (in " + describeLocation(I) + ")";
  F.getContext().diagnose(
      DiagnosticInfoUnsupported(F, Text, I.getDebugLoc(), DS_Warning));
}

void warnIn(const Function &F, const Twine &Message) {
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F, "ptm: " + Message, DiagnosticLocation(), DS_Warning));
}

} // namespace ptm
