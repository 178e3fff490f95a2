//===- TxRegions.cpp - which instructions run in a transaction
//--------------===//

#include "TxRegions.h"
#include "Diagnostics.h"

#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace ptm {

namespace {

// Depth beyond which a region is considered runaway (a begin in a loop whose
// end is missing on some path).
constexpr unsigned MaxDepth = 16;

enum class Marker { None, Begin, End, Unwind, EndCatch };

Marker markerOf(const Instruction &I, const RegionMarkers &M) {
  const auto *CB = dyn_cast<CallBase>(&I);
  const Function *F = CB ? CB->getCalledFunction() : nullptr;
  if (!F)
    return Marker::None;
  if (isa<CallInst>(CB)) {
    if (F->getName() == M.Begin)
      return Marker::Begin;
    if (F->getName() == M.End)
      return Marker::End;
  }
  // The region guard of ptm.h (its destructor, or the runtime call it makes)
  // closes a region when an exception leaves it.
  StringRef N = F->getName();
  if (N == "__ptm_region_unwind" ||
      N.starts_with("_ZN3ptm6detail12region_guardD"))
    return Marker::Unwind;
  if (N == "__cxa_end_catch")
    return Marker::EndCatch;
  return Marker::None;
}

// Data-flow state at a program point: static depth, and the outermost begins
// whose region is open there.
struct State {
  unsigned Depth = 0;
  SmallSetVector<CallInst *, 2> Open;
  bool Reached = false;
  // On an exception path (from a landing pad to the end of the catch).
  bool Exceptional = false;

  // Joins In into this state; returns true if it changed.
  bool join(const State &In, bool &Mismatch) {
    bool Changed = false;
    if (!Reached) {
      *this = In;
      Reached = true;
      return true;
    }
    if (In.Depth != Depth) {
      Mismatch = true;
      if (In.Depth > Depth) {
        Depth = In.Depth;
        Changed = true;
      }
    }
    for (CallInst *B : In.Open)
      Changed |= Open.insert(B);
    if (Exceptional && !In.Exceptional) {
      Exceptional = false;
      Changed = true;
    }
    return Changed;
  }
};

} // namespace

TxRegions::TxRegions(Function &F, RegionMarkers Markers, bool Warn) {
  bool HasMarkers = false;
  for (Instruction &I : instructions(F))
    if (markerOf(I, Markers) == Marker::Begin ||
        markerOf(I, Markers) == Marker::End) {
      HasMarkers = true;
      break;
    }
  if (!HasMarkers)
    return;

  DenseMap<BasicBlock *, State> Entry;
  SmallSetVector<BasicBlock *, 16> Work;
  Entry[&F.getEntryBlock()].Reached = true;
  Work.insert(&F.getEntryBlock());
  bool Mismatch = false, Runaway = false;

  // Transfer function of a block; when Record is set, also records the
  // result (instructions in a transaction, markers).
  auto Walk = [&](BasicBlock &BB, State S, bool Record) {
    for (Instruction &I : BB) {
      switch (markerOf(I, Markers)) {
      case Marker::Begin:
        if (Record) {
          if (S.Depth == 0)
            OuterBegins.push_back(cast<CallInst>(&I));
          else
            Nested.push_back(cast<CallInst>(&I));
        }
        if (S.Depth == 0) {
          S.Open.clear();
          S.Open.insert(cast<CallInst>(&I));
        }
        if (S.Depth < MaxDepth)
          ++S.Depth;
        else
          Runaway = true;
        break;
      case Marker::End:
        if (S.Depth == 0) {
          if (Record && Warn)
            warnAt(I, "PTM_END() without a matching PTM_BEGIN()");
          break;
        }
        --S.Depth;
        if (Record) {
          auto *CI = cast<CallInst>(&I);
          if (S.Depth == 0) {
            OuterEnds.push_back(CI);
            BeginsOf[CI].insert(S.Open.begin(), S.Open.end());
          } else {
            Nested.push_back(CI);
          }
        }
        if (S.Depth == 0)
          S.Open.clear();
        break;
      case Marker::Unwind:
        // On the normal path the guard runs after PTM_END() and does nothing.
        if (S.Exceptional && S.Depth > 0 && --S.Depth == 0)
          S.Open.clear();
        break;
      case Marker::EndCatch:
        if (S.Depth > 0 && Record)
          InTx.push_back(&I);
        S.Exceptional = false;
        break;
      case Marker::None:
        if (S.Depth > 0 && Record)
          InTx.push_back(&I);
        if (Record && Warn && S.Depth > 0 && isa<ReturnInst>(I))
          warnAt(I, "control leaves a transaction without PTM_END() (return, "
                    "break or goto out of a PTM_BEGIN() region); the "
                    "transaction stays open");
        break;
      }
    }
    return S;
  };

  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    State Out = Walk(*BB, Entry[BB], /*Record=*/false);
    for (BasicBlock *Succ : successors(BB)) {
      State In = Out;
      if (Succ->isEHPad())
        In.Exceptional = true;
      if (Entry[Succ].join(In, Mismatch))
        Work.insert(Succ);
    }
  }

  for (BasicBlock &BB : F) {
    auto It = Entry.find(&BB);
    if (It == Entry.end() || !It->second.Reached)
      continue;
    Walk(BB, It->second, /*Record=*/true);
  }

  if (Warn && (Mismatch || Runaway))
    warnIn(F, "PTM_BEGIN()/PTM_END() are not balanced on every path in "
              "function '" +
                  F.getName() +
                  "'; code reachable from a PTM_BEGIN() is treated as "
                  "transactional");
}

} // namespace ptm
