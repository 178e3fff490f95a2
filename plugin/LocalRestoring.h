//===- LocalRestoring.h - locals an abort must restore ----------*- C++ -*-===//
//
// A transaction that aborts re-executes from its begin, either through
// longjmp to the checkpoint or through the retry edge after a failed commit.
// A local of the function holding the region that exists before the region
// and may be written inside it must be back at its value from before the
// region when the attempt re-executes. The pass decides which locals
// (localsToRestore) before any optimization, while every local is still a
// stack slot, and RegionLowering copies each into an entry copy before the
// checkpoint and back at the start of every attempt. Once the optimizer
// promotes the local to an SSA value, the copy back is the pre-region value
// itself: the value at the start of an attempt never merges with a value the
// aborted attempt computed, neither on the retry edge nor in a register or
// spill slot that longjmp does not restore.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_LOCALRESTORING_H
#define PTM_PLUGIN_LOCALRESTORING_H

#include "llvm/ADT/SmallVector.h"

namespace llvm {
class AllocaInst;
class Function;
} // namespace llvm

namespace ptm {

class StackPrivacy;
class TxRegions;

// The stack slots of F that exist before one of its regions (their lifetime
// does not start inside it), may be written inside it, and are accessed
// without barriers (private: their address never escapes). Slots whose
// address escapes are accessed through barriers, so the library's undo/redo
// log restores them.
llvm::SmallVector<llvm::AllocaInst *, 8>
localsToRestore(llvm::Function &F, const TxRegions &R, StackPrivacy &Privacy);

} // namespace ptm

#endif
