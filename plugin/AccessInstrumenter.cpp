//===- AccessInstrumenter.cpp - rewriting of transactional code
//-------------===//

#include "AccessInstrumenter.h"
#include "CalleeClassifier.h"
#include "CloneBuilder.h"
#include "Diagnostics.h"
#include "LlvmCompat.h"
#include "RuntimeCallbacks.h"
#include "StackPrivacy.h"
#include "TxIRBuilder.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/LowerAtomic.h"

#include "ptm_abi_kinds.h"

using namespace llvm;

#define DEBUG_TYPE "ptm-instrument"

STATISTIC(NumReads, "Instrumented loads");
STATISTIC(NumWrites, "Instrumented stores");
STATISTIC(NumPrivate, "Accesses to private stack slots left as they are");
STATISTIC(NumConstReads, "Loads of constant memory left as they are");
STATISTIC(NumAtomics, "Atomic read-modify-writes made transactional");
STATISTIC(NumMemIntrinsics, "Instrumented memory intrinsics");
STATISTIC(NumLibcCalls, "libc calls replaced by transactional versions");
STATISTIC(NumAllocCalls, "Allocation calls replaced by transactional versions");
STATISTIC(NumCloneCalls, "Calls redirected to clones");
STATISTIC(NumExternalCalls, "Calls of other units' clones");
STATISTIC(NumIndirectCalls, "Indirect calls translated at run time");
STATISTIC(NumUnsupported, "Unsupported constructs reported");
STATISTIC(NumVaLists, "va_start, va_copy and va_arg on shared va_lists");

static cl::opt<bool> ClWarnExternal(
    "ptm-warn-external-calls", cl::init(false), cl::Hidden,
    cl::desc("Warn about every call inside a transaction whose clone is "
             "looked up in another unit"));

namespace ptm {

AccessInstrumenter::AccessInstrumenter(Module &M, RuntimeCallbacks &RT,
                                       const CalleeClassifier &CC,
                                       const CloneBuilder &Clones,
                                       StackPrivacy &Privacy)
    : M(M), DL(M.getDataLayout()), RT(RT), CC(CC), Clones(Clones),
      Privacy(Privacy) {}

AllocaInst *AccessInstrumenter::temporary(Function &F, Type *Ty) {
  AllocaInst *&T = Temporaries[{&F, Ty}];
  if (!T) {
    TxIRBuilder IRB(&*F.getEntryBlock().getFirstInsertionPt());
    T = IRB.CreateAlloca(Ty, nullptr, "ptm.tmp");
    markTemporary(T);
  }
  return T;
}

// Whether a value of type Ty (StoreSize bytes) travels through the integer
// barrier of its size: integers of exactly that width, floating point,
// pointers, and vectors of those that fill the size exactly.
static bool fitsIntegerBarrier(Type *Ty, uint64_t StoreSize,
                               const DataLayout &DL) {
  if (RuntimeCallbacks::sizeIndex(StoreSize) < 0)
    return false;
  if (Ty->isPointerTy())
    return Ty->getPointerAddressSpace() == 0 &&
           DL.getPointerSize(0) == StoreSize;
  if (auto *VT = dyn_cast<FixedVectorType>(Ty))
    if (VT->getElementType()->isPointerTy())
      return false;
  if (!Ty->isIntegerTy() && !Ty->isFloatingPointTy() && !Ty->isVectorTy())
    return false;
  TypeSize Bits = DL.getTypeSizeInBits(Ty);
  return !Bits.isScalable() && Bits.getFixedValue() == StoreSize * 8;
}

void AccessInstrumenter::instrumentLoad(LoadInst *LI) {
  Value *Ptr = LI->getPointerOperand();
  Type *Ty = LI->getType();
  uint64_t Size = DL.getTypeStoreSize(Ty);
  TxIRBuilder IRB(LI);
  Value *V;
  if (fitsIntegerBarrier(Ty, Size, DL)) {
    Value *Raw =
        IRB.CreateCall(RT.ReadFn[RuntimeCallbacks::sizeIndex(Size)], {Ptr});
    V = Ty->isPointerTy() ? IRB.CreateIntToPtr(Raw, Ty)
                          : IRB.CreateBitCast(Raw, Ty);
  } else {
    AllocaInst *Tmp = temporary(*LI->getFunction(), Ty);
    IRB.CreateCall(RT.ReadN, {Tmp, Ptr, ConstantInt::get(RT.intPtrTy(), Size)});
    V = IRB.CreateLoad(Ty, Tmp);
  }
  V->takeName(LI);
  LI->replaceAllUsesWith(V);
  LI->eraseFromParent();
  ++NumReads;
}

void AccessInstrumenter::instrumentStore(StoreInst *SI) {
  Value *Ptr = SI->getPointerOperand();
  Value *Val = SI->getValueOperand();
  Type *Ty = Val->getType();
  uint64_t Size = DL.getTypeStoreSize(Ty);
  TxIRBuilder IRB(SI);
  int Idx = RuntimeCallbacks::sizeIndex(Size);
  if (fitsIntegerBarrier(Ty, Size, DL)) {
    Type *IntTy = IRB.getIntNTy(Size * 8);
    Value *Raw = Ty->isPointerTy() ? IRB.CreatePtrToInt(Val, IntTy)
                                   : IRB.CreateBitCast(Val, IntTy);
    IRB.CreateCall(RT.WriteFn[Idx], {Ptr, Raw});
  } else {
    AllocaInst *Tmp = temporary(*SI->getFunction(), Ty);
    IRB.CreateStore(Val, Tmp);
    IRB.CreateCall(RT.WriteN,
                   {Ptr, Tmp, ConstantInt::get(RT.intPtrTy(), Size)});
  }
  SI->eraseFromParent();
  ++NumWrites;
}

void AccessInstrumenter::instrumentMemTransfer(CallBase *CB, bool IsMove) {
  Value *Dst = CB->getArgOperand(0), *Src = CB->getArgOperand(1);
  // A constant source needs no read barrier, like a private one.
  bool DstPrivate = Privacy.isPrivate(Dst);
  bool SrcPrivate =
      Privacy.isPrivate(Src) || StackPrivacy::isConstantMemory(Src);
  if (DstPrivate && SrcPrivate) {
    NumPrivate++;
    return;
  }
  TxIRBuilder IRB(CB);
  Value *Len = IRB.CreateZExtOrTrunc(CB->getArgOperand(2), RT.intPtrTy());
  FunctionCallee Fn = DstPrivate   ? RT.ReadN
                      : SrcPrivate ? RT.WriteN
                      : IsMove     ? RT.Memmove
                                   : RT.Memcpy;
  IRB.CreateCall(Fn, {Dst, Src, Len});
  if (!CB->getType()->isVoidTy())
    CB->replaceAllUsesWith(Dst); // libc memcpy/memmove return dst
  CB->eraseFromParent();
  ++NumMemIntrinsics;
}

void AccessInstrumenter::instrumentMemSet(CallBase *CB) {
  Value *Dst = CB->getArgOperand(0);
  if (Privacy.isPrivate(Dst)) {
    NumPrivate++;
    return;
  }
  TxIRBuilder IRB(CB);
  Value *C = IRB.CreateZExtOrTrunc(CB->getArgOperand(1), IRB.getInt32Ty());
  Value *Len = IRB.CreateZExtOrTrunc(CB->getArgOperand(2), RT.intPtrTy());
  IRB.CreateCall(RT.Memset, {Dst, C, Len});
  if (!CB->getType()->isVoidTy())
    CB->replaceAllUsesWith(Dst); // libc memset returns dst
  CB->eraseFromParent();
  ++NumMemIntrinsics;
}

// The size of a va_list on the module's target: what va_start and va_copy
// write and va_arg updates (the target's ABI; LLVM lowers va_copy to a copy
// of that many bytes).
static uint64_t vaListSize(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.getArch() == Triple::x86_64 && !T.isOSWindows())
    return 24; // gp_offset, fp_offset, overflow_arg_area, reg_save_area
  if (T.isAArch64() && !T.isOSDarwin() && !T.isOSWindows())
    return 32; // __stack, __gr_top, __vr_top, __gr_offs, __vr_offs
  if (T.getArch() == Triple::systemz)
    return 32;
  return M.getDataLayout().getPointerSize(0); // a pointer into the arguments
}

AllocaInst *AccessInstrumenter::vaTemporary(Function &F, unsigned Index) {
  AllocaInst *&T = VaTemporaries[{&F, Index}];
  if (!T) {
    TxIRBuilder IRB(&*F.getEntryBlock().getFirstInsertionPt());
    T = IRB.CreateAlloca(ArrayType::get(IRB.getInt8Ty(), vaListSize(M)),
                         nullptr, "ptm.va_list");
    T->setAlignment(Align(16));
    markTemporary(T);
  }
  return T;
}

// The va_* intrinsics and va_arg store into a va_list with code no barrier
// sees (the back end's). A list that is not private (StackPrivacy) is
// handled through a private copy: va_start fills the copy, which then goes
// into the list through the write barrier; va_copy reads its source through
// the read barrier; va_arg works on a copy read and written back through
// the barriers. Its log and its memory then never disagree about a list.
void AccessInstrumenter::instrumentVaList(Instruction *I) {
  auto *II = dyn_cast<IntrinsicInst>(I);
  Value *List =
      II ? II->getArgOperand(0) : cast<VAArgInst>(I)->getPointerOperand();
  bool ListPrivate = Privacy.isPrivate(List);
  bool SrcPrivate = true;
  Value *Src = nullptr;
  if (II && II->getIntrinsicID() == Intrinsic::vacopy) {
    Src = II->getArgOperand(1);
    SrcPrivate = Privacy.isPrivate(Src);
  }
  if (ListPrivate && SrcPrivate) {
    ++NumPrivate;
    return;
  }
  Function &F = *I->getFunction();
  TxIRBuilder IRB(I);
  Value *Size = ConstantInt::get(RT.intPtrTy(), vaListSize(M));
  Value *Copy = ListPrivate ? List : vaTemporary(F, 0);
  if (!II) { // va_arg: the list's current state first
    if (!ListPrivate)
      IRB.CreateCall(RT.ReadN, {Copy, List, Size});
    I->setOperand(0, Copy);
  } else if (Src) { // va_copy
    if (!SrcPrivate) {
      Value *SrcCopy = vaTemporary(F, 1);
      IRB.CreateCall(RT.ReadN, {SrcCopy, Src, Size});
      II->setArgOperand(1, SrcCopy);
    }
    II->setArgOperand(0, Copy);
  } else { // va_start
    II->setArgOperand(0, Copy);
  }
  if (!ListPrivate) {
    IRB.SetInsertPoint(I->getNextNode());
    IRB.CreateCall(RT.WriteN, {List, Copy, Size});
  }
  ++NumVaLists;
}

void AccessInstrumenter::reportUnsupported(Instruction *I, int Kind,
                                           const Twine &What,
                                           const Twine &Warning) {
  if (!Quiet)
    warnAt(*I, Warning);
  TxIRBuilder IRB(I);
  IRB.CreateCall(RT.Unsupported, {IRB.getInt32(Kind), RT.string(What.str()),
                                  RT.string(describeLocation(*I))});
  ++NumUnsupported;
}

// Replaces CB by a call (or invoke) of Callee with the arguments Args.
static CallBase *replaceCall(CallBase *CB, FunctionCallee Callee,
                             ArrayRef<Value *> Args) {
  CallBase *New;
  if (auto *II = dyn_cast<InvokeInst>(CB))
    New = InvokeInst::Create(Callee, II->getNormalDest(), II->getUnwindDest(),
                             Args, "", compat::before(CB));
  else
    New = CallInst::Create(Callee, Args, "", compat::before(CB));
  New->setDebugLoc(locationFor(*CB));
  New->takeName(CB);
  if (!CB->getType()->isVoidTy()) {
    Value *V = New;
    if (New->getType() != CB->getType()) {
      TxIRBuilder IRB(CB);
      V = IRB.CreateBitOrPointerCast(New, CB->getType());
    }
    CB->replaceAllUsesWith(V);
  }
  CB->eraseFromParent();
  return New;
}

// Call-site attributes that described the original callee's body.
static void dropCallSiteBodyAttributes(CallBase *CB) {
  // The new callee may be inlinable (a clone, a runtime function under LTO).
  CB->setDebugLoc(locationFor(*CB));
  CB->removeFnAttr(Attribute::Memory);
  CB->removeFnAttr(Attribute::NoSync);
  CB->removeFnAttr(Attribute::NoFree);
  CB->removeFnAttr(Attribute::WillReturn);
  CB->removeFnAttr(Attribute::Speculatable);
}

void AccessInstrumenter::redirectToExternalClone(CallBase *CB,
                                                 Function *Callee) {
  // The clone is bound statically when the defining unit was compiled with
  // the plugin (a weak reference: always resolved under LTO); otherwise the
  // runtime looks it up, and reports the call if there is none.
  std::string Name = CloneBuilder::cloneName(Callee->getName());
  Function *Weak = M.getFunction(Name);
  if (!Weak)
    Weak = Function::Create(Callee->getFunctionType(),
                            GlobalValue::ExternalWeakLinkage, Name, M);
  if (ClWarnExternal && !Quiet)
    warnAt(*CB, "call of '" + Callee->getName() +
                    "' inside a transaction: its transactional clone must "
                    "come from another unit compiled with the plugin");

  TxIRBuilder IRB(CB);
  Value *Missing = compat::isNull(IRB, Weak);
  Instruction *ThenTerm =
      SplitBlockAndInsertIfThen(Missing, compat::before(CB), false);
  BasicBlock *Head = ThenTerm->getParent()->getSinglePredecessor();
  IRB.moveTo(ThenTerm);
  // The site names the callee: the runtime cannot always find a name for an
  // address (dladdr sees exported symbols only).
  Value *Found = IRB.CreateCall(
      RT.CloneLookup, {Callee, RT.string(describeLocation(*CB) + ", calling '" +
                                         Callee->getName().str() + "'")});
  BasicBlock *Tail = CB->getParent();
  IRB.moveTo(&Tail->front());
  PHINode *Target = IRB.CreatePHI(Weak->getType(), 2, "ptm.clone");
  Target->addIncoming(Weak, Head);
  Target->addIncoming(Found, ThenTerm->getParent());
  CB->setCalledOperand(Target);
  dropCallSiteBodyAttributes(CB);
  ++NumExternalCalls;
}

void AccessInstrumenter::instrumentCall(CallBase *CB) {
  Value *CalleeOp = CB->getCalledOperand();
  if (auto *IA = dyn_cast<InlineAsm>(CalleeOp)) {
    // An empty asm statement is a compiler barrier: nothing to do.
    if (IA->getAsmString().empty())
      return;
    reportUnsupported(CB, PTM_UNSUPPORTED_INLINE_ASM, "inline asm",
                      "inline assembly inside a transaction cannot be made "
                      "transactional; it runs as is");
    return;
  }
  if (isa<CallBrInst>(CB)) {
    reportUnsupported(CB, PTM_UNSUPPORTED_INLINE_ASM, "asm goto",
                      "asm goto inside a transaction cannot be made "
                      "transactional");
    return;
  }

  Function *Callee = dyn_cast<Function>(CalleeOp->stripPointerCasts());
  if (!Callee || Callee->getFunctionType() != CB->getFunctionType()) {
    // Indirect call, or a call through a mismatched prototype (K&R C),
    // treated as one: translated to the clone at run time.
    TxIRBuilder IRB(CB);
    Value *Target = IRB.CreateCall(
        RT.CloneLookup, {CalleeOp, RT.string(describeLocation(*CB))});
    CB->setCalledOperand(Target);
    dropCallSiteBodyAttributes(CB);
    ++NumIndirectCalls;
    return;
  }

  if (auto *II = dyn_cast<IntrinsicInst>(CB))
    if (II->getIntrinsicID() == Intrinsic::vastart ||
        II->getIntrinsicID() == Intrinsic::vacopy)
      return instrumentVaList(II);

  switch (CC.classify(*Callee)) {
  case CalleeKind::Runtime:
  case CalleeKind::Pure:
  case CalleeKind::Ignored:
  case CalleeKind::AtomicCall:
    return;
  case CalleeKind::MemTransfer:
    instrumentMemTransfer(CB, Callee->getName().contains("memmove"));
    return;
  case CalleeKind::MemSet:
    instrumentMemSet(CB);
    return;
  case CalleeKind::Alloc: {
    const AllocReplacement *R = CC.allocReplacement(Callee->getName());
    SmallVector<Value *, 3> Args;
    SmallVector<Type *, 3> ArgTys;
    for (unsigned I : R->Args) {
      Args.push_back(CB->getArgOperand(I));
      ArgTys.push_back(CB->getArgOperand(I)->getType());
    }
    FunctionCallee Fn =
        RT.get(R->Runtime, FunctionType::get(CB->getType(), ArgTys, false));
    replaceCall(CB, Fn, Args);
    ++NumAllocCalls;
    return;
  }
  case CalleeKind::Libc:
    CB->setCalledFunction(
        RT.get(CalleeClassifier::libcReplacement(Callee->getName()),
               CB->getFunctionType()));
    dropCallSiteBodyAttributes(CB);
    ++NumLibcCalls;
    return;
  case CalleeKind::Setjmp:
    reportUnsupported(CB, PTM_UNSUPPORTED_SETJMP, Callee->getName(),
                      "'" + Callee->getName() +
                          "' inside a transaction is not supported");
    return;
  case CalleeKind::Irrevocable:
    reportUnsupported(CB, PTM_UNSUPPORTED_IRREVOCABLE, Callee->getName(),
                      "call of '" + Callee->getName() +
                          "' inside a transaction cannot be rolled back; the "
                          "transaction becomes irrevocable or fails at run "
                          "time, depending on the library");
    return;
  case CalleeKind::UnsupportedIntrinsic:
    reportUnsupported(CB, PTM_UNSUPPORTED_INTRINSIC, Callee->getName(),
                      "intrinsic '" + Callee->getName() +
                          "' inside a transaction is not instrumented");
    return;
  case CalleeKind::Cloned:
    if (Function *Clone = Clones.cloneOf(*Callee)) {
      CB->setCalledFunction(Clone);
      dropCallSiteBodyAttributes(CB);
      ++NumCloneCalls;
      return;
    }
    reportUnsupported(CB, PTM_UNSUPPORTED_CALL, Callee->getName(),
                      "function '" + Callee->getName() +
                          "' cannot be cloned (naked); it runs "
                          "uninstrumented inside the transaction");
    return;
  case CalleeKind::External:
    redirectToExternalClone(CB, Callee);
    return;
  }
}

void AccessInstrumenter::instrument(Function &F, ArrayRef<Instruction *> Instrs,
                                    bool QuietWarnings) {
  Quiet = QuietWarnings;
  // Decide first, rewrite after: rewriting adds uses of pointers that would
  // change what capture tracking says.
  SmallVector<LoadInst *, 16> Loads;
  SmallVector<StoreInst *, 16> Stores;
  SmallVector<CallBase *, 16> Calls;
  SmallVector<Instruction *, 4> Atomics;
  SmallVector<VAArgInst *, 4> VaArgs;
  for (Instruction *I : Instrs) {
    if (auto *LI = dyn_cast<LoadInst>(I)) {
      if (Privacy.isPrivate(LI->getPointerOperand()))
        ++NumPrivate;
      else if (StackPrivacy::isConstantMemory(LI->getPointerOperand()))
        ++NumConstReads;
      else
        Loads.push_back(LI);
    } else if (auto *SI = dyn_cast<StoreInst>(I)) {
      if (Privacy.isPrivate(SI->getPointerOperand()))
        ++NumPrivate;
      else
        Stores.push_back(SI);
    } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
      Value *Ptr = isa<AtomicRMWInst>(I)
                       ? cast<AtomicRMWInst>(I)->getPointerOperand()
                       : cast<AtomicCmpXchgInst>(I)->getPointerOperand();
      if (!Privacy.isPrivate(Ptr))
        Atomics.push_back(I);
    } else if (auto *CB = dyn_cast<CallBase>(I)) {
      if (const auto *II = dyn_cast<IntrinsicInst>(CB))
        if (II->getIntrinsicID() == Intrinsic::vastart ||
            II->getIntrinsicID() == Intrinsic::vacopy)
          for (Value *Op : II->args())
            Privacy.isPrivate(Op); // (decided now, see above)
      Calls.push_back(CB);
    } else if (auto *VA = dyn_cast<VAArgInst>(I)) {
      Privacy.isPrivate(VA->getPointerOperand());
      VaArgs.push_back(VA);
    }
  }

  // Atomic read-modify-writes are plain reads and writes inside a
  // transaction, which is atomic as a whole.
  for (Instruction *I : Atomics) {
    TxIRBuilder IRB(I);
    if (auto *RMW = dyn_cast<AtomicRMWInst>(I)) {
      Value *Ptr = RMW->getPointerOperand();
      LoadInst *Old = IRB.CreateLoad(RMW->getType(), Ptr);
      Value *New = buildAtomicRMWValue(RMW->getOperation(), IRB, Old,
                                       RMW->getValOperand());
      StoreInst *St = IRB.CreateStore(New, Ptr);
      RMW->replaceAllUsesWith(Old);
      RMW->eraseFromParent();
      Loads.push_back(Old);
      Stores.push_back(St);
    } else {
      auto *CX = cast<AtomicCmpXchgInst>(I);
      Value *Ptr = CX->getPointerOperand();
      Type *Ty = CX->getCompareOperand()->getType();
      LoadInst *Old = IRB.CreateLoad(Ty, Ptr);
      Value *Eq = IRB.CreateICmpEQ(Old, CX->getCompareOperand());
      Value *New = IRB.CreateSelect(Eq, CX->getNewValOperand(), Old);
      StoreInst *St = IRB.CreateStore(New, Ptr);
      Value *Res =
          IRB.CreateInsertValue(PoisonValue::get(CX->getType()), Old, 0);
      Res = IRB.CreateInsertValue(Res, Eq, 1);
      CX->replaceAllUsesWith(Res);
      CX->eraseFromParent();
      Loads.push_back(Old);
      Stores.push_back(St);
    }
    ++NumAtomics;
  }

  for (LoadInst *LI : Loads)
    instrumentLoad(LI);
  for (StoreInst *SI : Stores)
    instrumentStore(SI);
  for (CallBase *CB : Calls)
    instrumentCall(CB);
  for (VAArgInst *VA : VaArgs)
    instrumentVaList(VA);
}

} // namespace ptm
