//===- RegionLowering.h - region markers into transactions ------*- C++ -*-===//

#ifndef PTM_PLUGIN_REGIONLOWERING_H
#define PTM_PLUGIN_REGIONLOWERING_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class AllocaInst;
class Function;
class Module;
} // namespace llvm

namespace ptm {

class RuntimeCallbacks;
class TxRegions;

// Markers are declared nothrow in ptm.h; a declaration without it gives
// `invoke`s in C++: make them plain calls.
void normalizeMarkers(llvm::Module &M);

// Turns the markers of F's outermost regions into
//     copy each local of Restore into its entry copy
//     %buf = __ptm_tx_checkpoint(); __ptm_setjmp(%buf)
//   ptm.restart:
//     copy each entry copy back into its local
//     __ptm_tx_begin(where)
//     ... region ...
//     %retry = __ptm_tx_commit(); br %retry != 0 ? ptm.restart : ptm.committed
// and removes nested markers. Restore: localsToRestore (LocalRestoring.h).
void lowerRegions(llvm::Function &F, TxRegions &R, RuntimeCallbacks &RT,
                  llvm::ArrayRef<llvm::AllocaInst *> Restore);

// Removes every marker of F (a clone: all of it runs in a transaction, so
// its regions are nested).
void removeMarkers(llvm::Function &F);

} // namespace ptm

#endif
