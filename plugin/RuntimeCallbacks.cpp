//===- RuntimeCallbacks.cpp - the runtime ABI, declared once
//----------------===//

#include "RuntimeCallbacks.h"

#include "llvm/IR/Attributes.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace ptm {

int RuntimeCallbacks::sizeIndex(uint64_t Bytes) {
  switch (Bytes) {
  case 1:
    return 0;
  case 2:
    return 1;
  case 4:
    return 2;
  case 8:
    return 3;
  default:
    return -1;
  }
}

FunctionCallee RuntimeCallbacks::declare(StringRef Name, FunctionType *Ty) {
  FunctionCallee C = M.getOrInsertFunction(Name, Ty);
  if (auto *F = dyn_cast<Function>(C.getCallee())) {
    F->addFnAttr(Attribute::NoUnwind);
    if (Weak && F->isDeclaration())
      F->setLinkage(GlobalValue::ExternalWeakLinkage);
  }
  return C;
}

FunctionCallee RuntimeCallbacks::get(StringRef Name, FunctionType *Ty) {
  return declare(Name, Ty);
}

RuntimeCallbacks::RuntimeCallbacks(Module &M, bool Weak) : M(M), Weak(Weak) {
  LLVMContext &C = M.getContext();
  Type *Void = Type::getVoidTy(C);
  Type *Ptr = PointerType::get(C, 0);
  Type *I32 = Type::getInt32Ty(C);
  IntPtrTy = M.getDataLayout().getIntPtrType(C);

  for (unsigned I = 0; I < NumSizes; ++I) {
    unsigned Bytes = 1u << I;
    Type *Ty = Type::getIntNTy(C, Bytes * 8);
    std::string N = std::to_string(Bytes);
    ReadFn[I] = declare("__ptm_read_" + N, FunctionType::get(Ty, {Ptr}, false));
    WriteFn[I] =
        declare("__ptm_write_" + N, FunctionType::get(Void, {Ptr, Ty}, false));
  }
  FunctionType *CopyTy = FunctionType::get(Void, {Ptr, Ptr, IntPtrTy}, false);
  ReadN = declare("__ptm_read_n", CopyTy);
  WriteN = declare("__ptm_write_n", CopyTy);
  Memcpy = declare("__ptm_memcpy", CopyTy);
  Memmove = declare("__ptm_memmove", CopyTy);
  Memset = declare("__ptm_memset",
                   FunctionType::get(Void, {Ptr, I32, IntPtrTy}, false));
  for (FunctionCallee F : {ReadN, WriteN, Memcpy, Memmove}) {
    if (auto *Fn = dyn_cast<Function>(F.getCallee())) {
      Fn->addParamAttr(0, Attribute::NoCapture);
      Fn->addParamAttr(1, Attribute::NoCapture);
    }
  }

  Checkpoint =
      declare("__ptm_tx_checkpoint", FunctionType::get(Ptr, {}, false));
  // The checkpoint: the runtime's __ptm_setjmp, which returns twice.
  Setjmp = declare("__ptm_setjmp", FunctionType::get(I32, {Ptr}, false));
  if (auto *F = dyn_cast<Function>(Setjmp.getCallee()))
    F->addFnAttr(Attribute::ReturnsTwice);
  TxBegin = declare("__ptm_tx_begin", FunctionType::get(Void, {Ptr}, false));
  TxCommit = declare("__ptm_tx_commit", FunctionType::get(I32, {}, false));

  CloneLookup =
      declare("__ptm_clone_lookup", FunctionType::get(Ptr, {Ptr, Ptr}, false));
  RegisterClones = declare("__ptm_register_clones",
                           FunctionType::get(Void, {Ptr, IntPtrTy}, false));
  Unsupported = declare("__ptm_unsupported",
                        FunctionType::get(Void, {I32, Ptr, Ptr}, false));
}

Constant *RuntimeCallbacks::string(StringRef S) {
  auto It = Strings.find(S);
  if (It != Strings.end())
    return It->second;
  Constant *Init = ConstantDataArray::getString(M.getContext(), S);
  auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                GlobalValue::PrivateLinkage, Init, ".ptm.str");
  GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  GV->setAlignment(Align(1));
  Strings[S] = GV;
  return GV;
}

} // namespace ptm
