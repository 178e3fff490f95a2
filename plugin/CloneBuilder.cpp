//===- CloneBuilder.cpp - transactional clones of functions
//-----------------===//

#include "CloneBuilder.h"
#include "CalleeClassifier.h"
#include "LlvmCompat.h"
#include "RuntimeCallbacks.h"
#include "TxIRBuilder.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace ptm {

CloneBuilder::CloneBuilder(Module &M, const CalleeClassifier &CC)
    : M(M), CC(CC) {}

std::string CloneBuilder::cloneName(StringRef Name) {
  return (Name + ".ptm").str();
}

bool CloneBuilder::cloneable(const Function &F) const {
  return !F.isDeclaration() && F.hasName() && !CC.isUninstrumented(F) &&
         !F.hasFnAttribute(Attribute::Naked) && !F.getName().ends_with(".ptm");
}

void CloneBuilder::require(Function &F, bool IsNeeded) {
  SmallVector<Function *, 16> Work{&F};
  // Same-unit callees, transitively: everything a clone calls directly.
  while (!Work.empty()) {
    Function *G = Work.pop_back_val();
    if (!cloneable(*G))
      continue;
    bool New = Clones.insert({G, nullptr}).second;
    bool NewlyNeeded = IsNeeded && Needed.insert(G).second;
    if (!New && !NewlyNeeded)
      continue;
    for (Instruction &I : instructions(*G))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          Work.push_back(Callee);
  }
}

void CloneBuilder::requireRoots(bool CloneExported) {
  SmallVector<Function *, 32> Roots, Speculative;
  for (Function &F : M) {
    if (!cloneable(F) || F.getName() == "main")
      continue;
    bool Exported = (!F.hasLocalLinkage() || F.hasAddressTaken()) &&
                    !F.hasAvailableExternallyLinkage();
    if (CC.isSafe(F))
      Roots.push_back(&F);
    else if (CloneExported && Exported)
      Speculative.push_back(&F);
  }
  // Functions passed to ptm_atomic.
  if (Function *Atomic = M.getFunction("ptm_atomic"))
    for (User *U : Atomic->users())
      if (auto *CB = dyn_cast<CallBase>(U))
        if (CB->getCalledFunction() == Atomic && CB->arg_size() >= 1)
          if (auto *Fn =
                  dyn_cast<Function>(CB->getArgOperand(0)->stripPointerCasts()))
            Roots.push_back(Fn);
  for (Function *F : Roots)
    require(*F, /*Needed=*/true);
  for (Function *F : Speculative)
    require(*F, /*Needed=*/false);
}

// Attributes that described the original body and are false for a clone,
// whose accesses are calls of the runtime.
static void dropBodyAttributes(Function &F) {
  F.removeFnAttr(Attribute::Memory);
  F.removeFnAttr(Attribute::NoSync);
  F.removeFnAttr(Attribute::NoFree);
  F.removeFnAttr(Attribute::WillReturn);
  F.removeFnAttr(Attribute::Speculatable);
  F.removeFnAttr(Attribute::NoRecurse);
  for (Argument &A : F.args()) {
    A.removeAttr(Attribute::ReadNone);
    A.removeAttr(Attribute::ReadOnly);
    A.removeAttr(Attribute::WriteOnly);
  }
}

void CloneBuilder::build() {
  for (auto &Entry : Clones) {
    Function *F = Entry.first;
    ValueToValueMapTy VMap;
    Function *C = CloneFunction(F, VMap);
    C->setName(cloneName(F->getName()));
    // Clones of available_externally functions must exist in this unit.
    if (F->hasAvailableExternallyLinkage())
      C->setLinkage(GlobalValue::LinkOnceODRLinkage);
    if (F->hasComdat() || C->hasLinkOnceLinkage() || C->hasWeakLinkage())
      C->setComdat(M.getOrInsertComdat(C->getName()));
    C->setVisibility(F->getVisibility());
    C->setDSOLocal(F->isDSOLocal());
    dropBodyAttributes(*C);
    Entry.second = C;
  }
}

Function *CloneBuilder::cloneOf(const Function &F) const {
  auto It = Clones.find(const_cast<Function *>(&F));
  return It == Clones.end() ? nullptr : It->second;
}

void CloneBuilder::emitRegistration(RuntimeCallbacks &RT) {
  if (Clones.empty())
    return;
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::get(Ctx, 0);
  StructType *EntryTy = StructType::get(Ctx, {Ptr, Ptr});
  SmallVector<Constant *, 32> Entries;
  for (auto &E : Clones) {
    // An available_externally original may have no symbol anywhere (an
    // inline member of an extern template): the unit's callers bind to the
    // clone directly, nothing to look up at run time.
    if (E.first->hasAvailableExternallyLinkage())
      continue;
    // Only what another unit or a function pointer can reach is looked up.
    if (E.first->hasLocalLinkage() && !E.first->hasAddressTaken())
      continue;
    Entries.push_back(ConstantStruct::get(EntryTy, {E.first, E.second}));
  }
  if (Entries.empty())
    return;
  ArrayType *TableTy = ArrayType::get(EntryTy, Entries.size());
  auto *Table = new GlobalVariable(
      M, TableTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantArray::get(TableTy, Entries), "__ptm_clone_table");

  Function *Ctor =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx), false),
                       GlobalValue::InternalLinkage, "ptm.register_clones", M);
  BasicBlock *BB = BasicBlock::Create(Ctx, "", Ctor);
  TxIRBuilder IRB(BB);
  Value *Register = RT.RegisterClones.getCallee();
  if (cast<GlobalValue>(Register)->hasExternalWeakLinkage()) {
    // No library linked: nothing to register with.
    BasicBlock *Call = BasicBlock::Create(Ctx, "register", Ctor);
    BasicBlock *Done = BasicBlock::Create(Ctx, "done", Ctor);
    IRB.CreateCondBr(compat::isNotNull(IRB, Register), Call, Done);
    IRB.SetInsertPoint(Call);
    IRB.ensureLocation();
    IRB.CreateCall(RT.RegisterClones,
                   {Table, ConstantInt::get(RT.intPtrTy(), Entries.size())});
    IRB.CreateBr(Done);
    IRB.SetInsertPoint(Done);
    IRB.ensureLocation();
  } else {
    IRB.CreateCall(RT.RegisterClones,
                   {Table, ConstantInt::get(RT.intPtrTy(), Entries.size())});
  }
  IRB.CreateRetVoid();
  appendToGlobalCtors(M, Ctor, /*Priority=*/0);
}

} // namespace ptm
