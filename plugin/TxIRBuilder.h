//===- TxIRBuilder.h - IRBuilder for instrumentation -----------*- C++ -*-===//
//
// Calls the pass inserts must carry a debug location whenever their function
// has debug information: the verifier rejects an inlinable call without one,
// and under LTO every runtime function is inlinable. Instructions without a
// location of their own get line 0 of the function's subprogram.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_TXIRBUILDER_H
#define PTM_PLUGIN_TXIRBUILDER_H

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"

namespace ptm {

// I's location, or line 0 of its function's subprogram.
inline llvm::DebugLoc locationFor(const llvm::Instruction &I) {
  if (I.getDebugLoc())
    return I.getDebugLoc();
  if (llvm::DISubprogram *SP = I.getFunction()->getSubprogram())
    return llvm::DILocation::get(SP->getContext(), 0, 0, SP);
  return llvm::DebugLoc();
}

class TxIRBuilder : public llvm::IRBuilder<> {
public:
  explicit TxIRBuilder(llvm::Instruction *I) : IRBuilder<>(I) {
    SetCurrentDebugLocation(locationFor(*I));
  }
  explicit TxIRBuilder(llvm::BasicBlock *BB) : IRBuilder<>(BB) {
    ensureLocation();
  }
  // Moves before I, taking its location (or line 0).
  void moveTo(llvm::Instruction *I) {
    SetInsertPoint(I);
    SetCurrentDebugLocation(locationFor(*I));
  }
  void ensureLocation() {
    if (getCurrentDebugLocation() || !GetInsertBlock())
      return;
    if (llvm::DISubprogram *SP = GetInsertBlock()->getParent()->getSubprogram())
      SetCurrentDebugLocation(
          llvm::DILocation::get(SP->getContext(), 0, 0, SP));
  }
};

} // namespace ptm

#endif
