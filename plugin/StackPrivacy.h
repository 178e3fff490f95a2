//===- StackPrivacy.h - memory that needs no instrumentation ----*- C++ -*-===//
//
// Which pointers reach only memory private to the running code: stack slots
// whose address never escapes (LLVM capture tracking), and which pointers
// reach only constant globals (read-only memory needs no read barrier).
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_STACKPRIVACY_H
#define PTM_PLUGIN_STACKPRIVACY_H

#include "llvm/ADT/DenseMap.h"

namespace llvm {
class AllocaInst;
class Value;
} // namespace llvm

namespace ptm {

// Slots the pass itself creates (barrier temporaries, the begin id): written
// before every use, so an abort never needs to restore them.
void markTemporary(llvm::AllocaInst *AI);
bool isTemporary(const llvm::AllocaInst *AI);

class StackPrivacy {
public:
  // A fixed-size stack slot whose address is never captured.
  bool isPrivateAlloca(const llvm::AllocaInst *AI);
  // Every object Ptr may point to is such a slot.
  bool isPrivate(const llvm::Value *Ptr);
  // Every object Ptr may point to is a constant global.
  static bool isConstantMemory(const llvm::Value *Ptr);

private:
  llvm::DenseMap<const llvm::AllocaInst *, bool> Cache;
};

} // namespace ptm

#endif
