//===- Diagnostics.h - compiler warnings of the ptm pass --------*- C++ -*-===//

#ifndef PTM_PLUGIN_DIAGNOSTICS_H
#define PTM_PLUGIN_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include <string>

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace ptm {

// "file:line:col" from the instruction's debug location, or "function 'f'"
// when there is no debug information.
std::string describeLocation(const llvm::Instruction &I);

// A compiler warning at I (file:line when debug info is present). Under clang
// it prints as "warning: ..." with the source location.
void warnAt(const llvm::Instruction &I, const llvm::Twine &Message);
void warnIn(const llvm::Function &F, const llvm::Twine &Message);

} // namespace ptm

#endif
