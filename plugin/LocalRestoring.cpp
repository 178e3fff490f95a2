//===- LocalRestoring.cpp - locals an abort must restore
//--------------------===//

#include "LocalRestoring.h"
#include "StackPrivacy.h"
#include "TxRegions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

#define DEBUG_TYPE "ptm-instrument"

STATISTIC(NumRestoredLocals, "Locals restored when a transaction re-executes");

static cl::opt<bool> ClRestoreLocals(
    "ptm-restore-locals", cl::init(true), cl::Hidden,
    cl::desc("Restore the locals a transaction writes when it re-executes"));

namespace ptm {

namespace {

// Whether a use of the slot inside the region may write it; StartsInside is
// set when its lifetime starts inside the region (a fresh slot per attempt).
bool writesInside(AllocaInst *A,
                  const SmallPtrSetImpl<const Instruction *> &InTx,
                  bool &StartsInside) {
  bool Written = false;
  SmallVector<const Value *, 8> Work{A};
  SmallPtrSet<const Value *, 8> Seen{A};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *UI = dyn_cast<Instruction>(U);
      if (!UI)
        continue;
      if (isa<GetElementPtrInst>(UI) || isa<BitCastInst>(UI) ||
          isa<AddrSpaceCastInst>(UI) || isa<PHINode>(UI) ||
          isa<SelectInst>(UI)) {
        if (Seen.insert(UI).second)
          Work.push_back(UI);
        continue;
      }
      if (!InTx.count(UI))
        continue;
      if (const auto *II = dyn_cast<IntrinsicInst>(UI)) {
        if (II->getIntrinsicID() == Intrinsic::lifetime_start) {
          StartsInside = true;
          continue;
        }
        if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
          continue;
      }
      if (isa<LoadInst>(UI))
        continue;
      Written = true; // store, memory intrinsic, call, atomic
    }
  }
  return Written;
}

} // namespace

SmallVector<AllocaInst *, 8> localsToRestore(Function &F, const TxRegions &R,
                                             StackPrivacy &Privacy) {
  SmallVector<AllocaInst *, 8> Restore;
  if (!ClRestoreLocals || R.OuterBegins.empty())
    return Restore;
  SmallPtrSet<const Instruction *, 32> InTx(R.InTx.begin(), R.InTx.end());
  // Static allocas live in the entry block, which dominates every begin.
  for (Instruction &I : F.getEntryBlock()) {
    auto *A = dyn_cast<AllocaInst>(&I);
    if (!A || !A->isStaticAlloca() || isTemporary(A) ||
        !Privacy.isPrivateAlloca(A))
      continue;
    bool StartsInside = false;
    if (writesInside(A, InTx, StartsInside) && !StartsInside) {
      Restore.push_back(A);
      ++NumRestoredLocals;
    }
  }
  return Restore;
}

} // namespace ptm
