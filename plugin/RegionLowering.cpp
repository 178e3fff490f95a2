//===- RegionLowering.cpp - region markers into transactions
//----------------===//

#include "RegionLowering.h"
#include "Diagnostics.h"
#include "LlvmCompat.h"
#include "RuntimeCallbacks.h"
#include "StackPrivacy.h"
#include "TxIRBuilder.h"
#include "TxRegions.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

#define DEBUG_TYPE "ptm-instrument"

STATISTIC(NumRegions, "Outermost transaction regions");

namespace ptm {

void normalizeMarkers(Module &M) {
  for (const char *Name : {"__ptm_region_begin", "__ptm_region_end",
                           "__ptm_region_depth", "__ptm_region_unwind"}) {
    Function *F = M.getFunction(Name);
    if (!F)
      continue;
    SmallVector<InvokeInst *, 4> Invokes;
    for (User *U : F->users())
      if (auto *II = dyn_cast<InvokeInst>(U))
        if (II->getCalledFunction() == F)
          Invokes.push_back(II);
    for (InvokeInst *II : Invokes)
      changeToCall(II);
  }
}

static BasicBlock *splitBefore(Instruction *I, const char *Name) {
  return SplitBlock(I->getParent(), compat::before(I),
                    static_cast<DomTreeUpdater *>(nullptr), nullptr, nullptr,
                    Name);
}

// Copies the whole of slot From into slot To (same type and count): a load
// and a store for a scalar, which promotion turns into one SSA value, a
// memcpy for an aggregate or an array.
static void copySlot(IRBuilder<> &IRB, AllocaInst *To, AllocaInst *From) {
  Type *Ty = From->getAllocatedType();
  if (Ty->isSingleValueType() && !From->isArrayAllocation()) {
    LoadInst *V = IRB.CreateAlignedLoad(Ty, From, From->getAlign());
    IRB.CreateAlignedStore(V, To, To->getAlign());
    return;
  }
  // A static alloca (localsToRestore), so its size is known.
  uint64_t Size = From->getAllocationSize(From->getModule()->getDataLayout())
                      ->getFixedValue();
  IRB.CreateMemCpy(To, To->getAlign(), From, From->getAlign(), Size);
}

// Entry copies: one slot per local to restore, next to it in the entry block.
// Written only before a checkpoint and read at the start of every attempt.
static SmallVector<std::pair<AllocaInst *, AllocaInst *>, 8>
makeEntryCopies(ArrayRef<AllocaInst *> Restore) {
  SmallVector<std::pair<AllocaInst *, AllocaInst *>, 8> Copies;
  for (AllocaInst *A : Restore) {
    IRBuilder<> IRB(A->getNextNode());
    AllocaInst *C = IRB.CreateAlloca(A->getAllocatedType(), A->getArraySize(),
                                     A->getName() + ".ptm.entry");
    C->setAlignment(A->getAlign());
    markTemporary(C);
    Copies.emplace_back(A, C);
  }
  return Copies;
}

void lowerRegions(Function &F, TxRegions &R, RuntimeCallbacks &RT,
                  ArrayRef<AllocaInst *> Restore) {
  auto Copies = makeEntryCopies(Restore);
  DenseMap<CallInst *, BasicBlock *> Restart;
  for (CallInst *B : R.OuterBegins) {
    BasicBlock *Head = B->getParent();
    BasicBlock *Body = splitBefore(B, "ptm.restart");
    TxIRBuilder IRB(Head->getTerminator());
    for (auto &[Local, Copy] : Copies)
      copySlot(IRB, Copy, Local);
    Value *Buf = IRB.CreateCall(RT.Checkpoint, {});
    CallInst *SJ = IRB.CreateCall(RT.Setjmp, {Buf});
    SJ->addFnAttr(Attribute::ReturnsTwice);
    IRB.moveTo(B);
    for (auto &[Local, Copy] : Copies)
      copySlot(IRB, Local, Copy);
    IRB.CreateCall(RT.TxBegin, {RT.string(describeLocation(*B))});
    Restart[B] = Body;
    B->eraseFromParent();
    ++NumRegions;
  }

  // Several begins reaching one end (duplicated code): the retry edge goes
  // back to the begin that ran, recorded in a private slot.
  AllocaInst *BeginId = nullptr;
  DenseMap<CallInst *, unsigned> IdOf;
  for (auto &E : R.BeginsOf)
    if (E.second.size() > 1 && !BeginId) {
      TxIRBuilder IRB(&*F.getEntryBlock().getFirstInsertionPt());
      BeginId = IRB.CreateAlloca(IRB.getInt32Ty(), nullptr, "ptm.begin.id");
      markTemporary(BeginId);
      unsigned Id = 0;
      for (auto &Entry : Restart) {
        IdOf[Entry.first] = Id;
        TxIRBuilder At(&*Entry.second->getFirstInsertionPt());
        At.CreateStore(At.getInt32(Id++), BeginId);
      }
    }

  for (CallInst *E : R.OuterEnds) {
    BasicBlock *Head = E->getParent();
    BasicBlock *After = splitBefore(E->getNextNode(), "ptm.committed");
    TxIRBuilder IRB(E);
    Value *Retry = IRB.CreateCall(RT.TxCommit, {}, "ptm.retry");
    Head->getTerminator()->eraseFromParent();
    IRB.SetInsertPoint(Head);
    IRB.ensureLocation();
    const auto &Begins = R.BeginsOf[E];
    if (Begins.size() == 1) {
      IRB.CreateCondBr(IRB.CreateIsNotNull(Retry), Restart[Begins[0]], After);
    } else if (Begins.empty()) {
      IRB.CreateBr(After);
    } else {
      BasicBlock *Dispatch =
          BasicBlock::Create(F.getContext(), "ptm.retry.dispatch", &F);
      IRB.CreateCondBr(IRB.CreateIsNotNull(Retry), Dispatch, After);
      TxIRBuilder D(Dispatch);
      Value *Id = D.CreateLoad(D.getInt32Ty(), BeginId);
      SwitchInst *SW = D.CreateSwitch(Id, Restart[Begins[0]], Begins.size());
      for (CallInst *B : Begins)
        SW->addCase(D.getInt32(IdOf[B]), Restart[B]);
    }
    E->eraseFromParent();
  }

  for (CallInst *N : R.Nested)
    N->eraseFromParent();
}

void removeMarkers(Function &F) {
  RegionMarkers M = RegionMarkers::source();
  SmallVector<CallInst *, 4> Markers;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Callee = CI->getCalledFunction())
        if (Callee->getName() == M.Begin || Callee->getName() == M.End)
          Markers.push_back(CI);
  for (CallInst *CI : Markers)
    CI->eraseFromParent();
}

} // namespace ptm
