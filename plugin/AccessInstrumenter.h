//===- AccessInstrumenter.h - rewriting of transactional code ---*- C++ -*-===//
//
// Rewrites instructions that run inside a transaction into calls of the
// runtime: loads and stores (by size, any type), atomics, memory intrinsics
// and libc memory functions, allocation, calls (to clones, through the clone
// table, or reported as unsupported), va_start, va_copy and va_arg on a
// va_list that is not private. Accesses to private stack slots (allocas whose
// address never escapes) and loads of constant globals stay as they are.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_ACCESSINSTRUMENTER_H
#define PTM_PLUGIN_ACCESSINSTRUMENTER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

namespace llvm {
class AllocaInst;
class CallBase;
class DataLayout;
class Function;
class Instruction;
class LoadInst;
class Module;
class StoreInst;
class Type;
class Value;
} // namespace llvm

namespace ptm {

class CalleeClassifier;
class CloneBuilder;
class RuntimeCallbacks;
class StackPrivacy;

class AccessInstrumenter {
public:
  AccessInstrumenter(llvm::Module &M, RuntimeCallbacks &RT,
                     const CalleeClassifier &CC, const CloneBuilder &Clones,
                     StackPrivacy &Privacy);

  // Rewrites Instrs, instructions of F that run inside a transaction. Quiet:
  // no compile-time warning (a clone made only in case another unit needs
  // it).
  void instrument(llvm::Function &F, llvm::ArrayRef<llvm::Instruction *> Instrs,
                  bool Quiet);

private:
  void instrumentLoad(llvm::LoadInst *LI);
  void instrumentStore(llvm::StoreInst *SI);
  void instrumentMemTransfer(llvm::CallBase *CB, bool IsMove);
  void instrumentMemSet(llvm::CallBase *CB);
  void instrumentCall(llvm::CallBase *CB);
  void instrumentVaList(llvm::Instruction *I);
  void redirectToExternalClone(llvm::CallBase *CB, llvm::Function *Callee);
  void reportUnsupported(llvm::Instruction *I, int Kind,
                         const llvm::Twine &What, const llvm::Twine &Warning);
  llvm::AllocaInst *temporary(llvm::Function &F, llvm::Type *Ty);
  llvm::AllocaInst *vaTemporary(llvm::Function &F, unsigned Index);

  llvm::Module &M;
  const llvm::DataLayout &DL;
  RuntimeCallbacks &RT;
  const CalleeClassifier &CC;
  const CloneBuilder &Clones;
  bool Quiet = false;
  StackPrivacy &Privacy;
  llvm::DenseMap<std::pair<llvm::Function *, llvm::Type *>, llvm::AllocaInst *>
      Temporaries;
  llvm::DenseMap<std::pair<llvm::Function *, unsigned>, llvm::AllocaInst *>
      VaTemporaries;
};

} // namespace ptm

#endif
