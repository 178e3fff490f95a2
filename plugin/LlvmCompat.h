//===- LlvmCompat.h - the LLVM API differences between majors ---*- C++ -*-===//
//
// The plugin builds against LLVM 16 and 19 (PTM_LLVM_VERSION, docs/install.md).
// Every difference of their APIs that the pass meets is bridged here, and
// only here: the pass files call these helpers instead of testing
// LLVM_VERSION_MAJOR themselves.
//
//  - Insertion points: LLVM 19 inserts new instructions before an iterator
//    (an InsertPosition; the iterator also says where debug records go),
//    LLVM 16 before an Instruction *. `before(I)` gives the major's form,
//    for CallInst::Create, InvokeInst::Create, SplitBlock and
//    SplitBlockAndInsertIfThen.
//  - Intrinsics that exist in one major only: `isCheckGuardIntrinsic`.
//  - Constant folding: LLVM 16's IRBuilder folds the comparison of a
//    constant (a weak function's address) with null into an icmp constant
//    expression, which LLVM 19 no longer has. `isNull` and `isNotNull` emit
//    the instruction in both majors, so both produce the same IR.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_LLVMCOMPAT_H
#define PTM_PLUGIN_LLVMCOMPAT_H

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/Intrinsics.h"

#if LLVM_VERSION_MAJOR != 16 && LLVM_VERSION_MAJOR != 19
#warning "ptm is tested with LLVM 16 and 19 only (plugin/LlvmCompat.h)"
#endif

namespace ptm {
namespace compat {

#if LLVM_VERSION_MAJOR >= 19
using InsertPoint = llvm::BasicBlock::iterator;
inline InsertPoint before(llvm::Instruction *I) { return I->getIterator(); }
#else
using InsertPoint = llvm::Instruction *;
inline InsertPoint before(llvm::Instruction *I) { return I; }
#endif

// llvm.allow.runtime.check and llvm.allow.ubsan.check (LLVM 19): they
// return whether a check may run and touch no memory.
inline bool isCheckGuardIntrinsic(llvm::Intrinsic::ID ID) {
#if LLVM_VERSION_MAJOR >= 19
  return ID == llvm::Intrinsic::allow_runtime_check ||
         ID == llvm::Intrinsic::allow_ubsan_check;
#else
  (void)ID;
  return false;
#endif
}

// V == null and V != null as instructions, never folded (see above).
inline llvm::Value *isNull(llvm::IRBuilderBase &IRB, llvm::Value *V) {
  return IRB.Insert(new llvm::ICmpInst(
      llvm::ICmpInst::ICMP_EQ, V, llvm::Constant::getNullValue(V->getType())));
}
inline llvm::Value *isNotNull(llvm::IRBuilderBase &IRB, llvm::Value *V) {
  return IRB.Insert(new llvm::ICmpInst(
      llvm::ICmpInst::ICMP_NE, V, llvm::Constant::getNullValue(V->getType())));
}

} // namespace compat
} // namespace ptm

#endif
