//===- ByvalArguments.cpp - by-value arguments of a clone -----------------===//

#include "ByvalArguments.h"
#include "TxIRBuilder.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#define DEBUG_TYPE "ptm-instrument"

STATISTIC(NumByvalCopies, "By-value arguments copied into the clone's frame");

namespace ptm {

void copyByvalArguments(Function &F) {
  if (F.isDeclaration())
    return;
  const DataLayout &DL = F.getParent()->getDataLayout();
  TxIRBuilder IRB(&*F.getEntryBlock().getFirstInsertionPt());
  for (Argument &A : F.args()) {
    if (!A.hasByValAttr() || A.use_empty())
      continue;
    Type *Ty = A.getParamByValType();
    Align Alignment = A.getParamAlign().valueOrOne();
    AllocaInst *Copy = IRB.CreateAlloca(Ty, nullptr, A.getName() + ".ptm");
    Copy->setAlignment(std::max(Alignment, Copy->getAlign()));
    A.replaceAllUsesWith(Copy);
    IRB.CreateMemCpy(Copy, Copy->getAlign(), &A, Alignment,
                     DL.getTypeAllocSize(Ty));
    ++NumByvalCopies;
  }
}

} // namespace ptm
