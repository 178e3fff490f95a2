//===- TxRegions.h - which instructions run in a transaction ----*- C++ -*-===//
//
// Finds the PTM_BEGIN()/PTM_END() regions of a function in its IR: calls of
// __ptm_region_begin/__ptm_region_end. A forward data-flow over the CFG gives
// every point its static nesting depth (regions nest flat); an instruction at
// depth > 0 runs inside a transaction. Outermost markers (depth 0 -> 1 and
// 1 -> 0) become the transaction's begin and commit; nested ones disappear.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_TXREGIONS_H
#define PTM_PLUGIN_TXREGIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class CallInst;
class Function;
class Instruction;
} // namespace llvm

namespace ptm {

// The calls that open and close a region: the markers of ptm.h before the
// pass lowers them, __ptm_tx_begin/__ptm_tx_commit after.
struct RegionMarkers {
  llvm::StringRef Begin, End;
  static RegionMarkers source() {
    return {"__ptm_region_begin", "__ptm_region_end"};
  }
  static RegionMarkers lowered() {
    return {"__ptm_tx_begin", "__ptm_tx_commit"};
  }
};

class TxRegions {
public:
  // Analyzes F; with Warn, reports unbalanced markers as compiler warnings.
  TxRegions(llvm::Function &F, RegionMarkers Markers, bool Warn);

  bool empty() const { return OuterBegins.empty() && Nested.empty(); }

  // Instructions inside a transaction, in program order per block (markers
  // excluded).
  llvm::SmallVector<llvm::Instruction *, 0> InTx;
  // Markers that open / close an outermost transaction.
  llvm::SmallVector<llvm::CallInst *, 2> OuterBegins, OuterEnds;
  // Markers inside a transaction (flat nesting): removed.
  llvm::SmallVector<llvm::CallInst *, 2> Nested;
  // For each outermost end, the outermost begins whose region it closes.
  llvm::DenseMap<llvm::CallInst *, llvm::SmallSetVector<llvm::CallInst *, 2>>
      BeginsOf;
};

} // namespace ptm

#endif
