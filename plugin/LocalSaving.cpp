//===- LocalSaving.cpp - locals an abort must restore
//-----------------------===//
//
// PtmLocalsPass runs after the optimizer. A transaction that aborts re-executes
// from its begin; values in registers are those of the checkpoint (the retry
// edge keeps them live), but a stack slot the region wrote keeps the written
// value. So the slots still in memory at this point that exist before a
// region and that it may write, and that are not accessed through barriers
// (their address never escapes), are passed to __ptm_tx_save_local after each
// outermost __ptm_tx_begin; the runtime restores them before re-executing. A
// slot whose lifetime starts inside the region is private to the attempt.
//
//===----------------------------------------------------------------------===//

#include "PtmInstrument.h"
#include "StackPrivacy.h"
#include "TxIRBuilder.h"
#include "TxRegions.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

#define DEBUG_TYPE "ptm-instrument"

STATISTIC(NumSavedLocals, "Locals saved at transaction begin");

static cl::opt<bool> ClSaveLocals(
    "ptm-save-locals", cl::init(true), cl::Hidden,
    cl::desc("Save locals written inside a transaction so that an abort "
             "restores them"));

namespace ptm {

namespace {

const char *const LocalsFlag = "ptm.locals";

// Whether a use of the slot inside the region may write it.
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

SetVector<AllocaInst *> localsToSave(Function &F, const TxRegions &R,
                                     StackPrivacy &Privacy) {
  SetVector<AllocaInst *> Saves;
  SmallPtrSet<const Instruction *, 32> InTx(R.InTx.begin(), R.InTx.end());
  DominatorTree DT(F);
  for (Instruction &I : F.getEntryBlock()) {
    auto *A = dyn_cast<AllocaInst>(&I);
    if (!A || !A->isStaticAlloca() || isTemporary(A) ||
        !Privacy.isPrivateAlloca(A))
      continue;
    if (!all_of(R.OuterBegins, [&](CallInst *B) { return DT.dominates(A, B); }))
      continue;
    bool StartsInside = false;
    if (writesInside(A, InTx, StartsInside) && !StartsInside)
      Saves.insert(A);
  }
  return Saves;
}

} // namespace

PreservedAnalyses PtmLocalsPass::run(Module &M, ModuleAnalysisManager &) {
  Function *Begin = M.getFunction(RegionMarkers::lowered().Begin);
  if (!ClSaveLocals || !Begin || M.getModuleFlag(LocalsFlag))
    return PreservedAnalyses::all();

  SetVector<Function *> WithRegions;
  for (User *U : Begin->users())
    if (auto *CI = dyn_cast<CallInst>(U))
      WithRegions.insert(CI->getFunction());

  const DataLayout &DL = M.getDataLayout();
  LLVMContext &Ctx = M.getContext();
  Type *IntPtrTy = DL.getIntPtrType(Ctx);
  FunctionCallee SaveLocal = M.getOrInsertFunction(
      "__ptm_tx_save_local",
      FunctionType::get(Type::getVoidTy(Ctx),
                        {PointerType::get(Ctx, 0), IntPtrTy}, false));
  if (auto *Fn = dyn_cast<Function>(SaveLocal.getCallee())) {
    Fn->addParamAttr(0, Attribute::NoCapture);
    Fn->addFnAttr(Attribute::NoUnwind);
  }

  StackPrivacy Privacy;
  for (Function *F : WithRegions) {
    TxRegions R(*F, RegionMarkers::lowered(), /*Warn=*/false);
    SetVector<AllocaInst *> Saves = localsToSave(*F, R, Privacy);
    if (Saves.empty())
      continue;
    for (CallInst *B : R.OuterBegins) {
      TxIRBuilder IRB(B->getNextNode());
      for (AllocaInst *A : Saves) {
        uint64_t Size = DL.getTypeAllocSize(A->getAllocatedType()) *
                        cast<ConstantInt>(A->getArraySize())->getZExtValue();
        IRB.CreateCall(SaveLocal, {A, ConstantInt::get(IntPtrTy, Size)});
        ++NumSavedLocals;
      }
    }
  }
  M.addModuleFlag(Module::Override, LocalsFlag, 1);
  verifyOrDie(M, "ptm-locals");
  return PreservedAnalyses::none();
}

} // namespace ptm
