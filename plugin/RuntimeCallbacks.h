//===- RuntimeCallbacks.h - the runtime ABI, declared once ------*- C++ -*-===//
//
// Declares the functions of runtime/include/ptm_abi.h in a module, once, with
// barriers indexed by access size (1, 2, 4, 8 bytes) as ThreadSanitizer does.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_RUNTIMECALLBACKS_H
#define PTM_PLUGIN_RUNTIMECALLBACKS_H

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"

namespace ptm {

class RuntimeCallbacks {
public:
  static constexpr unsigned NumSizes = 4; // 1, 2, 4, 8 bytes

  // Weak: declare every callback extern_weak, for a unit that has clones but
  // no transaction of its own, so that it still links without a library.
  RuntimeCallbacks(llvm::Module &M, bool Weak);

  // Index of an access of Bytes bytes in ReadFn/WriteFn, or -1.
  static int sizeIndex(uint64_t Bytes);

  llvm::FunctionCallee ReadFn[NumSizes], WriteFn[NumSizes];
  llvm::FunctionCallee ReadN, WriteN; // (private, shared, n)
  llvm::FunctionCallee Memcpy, Memmove, Memset;
  llvm::FunctionCallee Checkpoint, Setjmp, TxBegin, TxCommit;
  llvm::FunctionCallee CloneLookup, RegisterClones, Unsupported;

  // Any other runtime function (libc and allocation replacements), declared
  // with the type of the call it replaces.
  llvm::FunctionCallee get(llvm::StringRef Name, llvm::FunctionType *Ty);

  // A private constant C string, shared between uses of the same text.
  llvm::Constant *string(llvm::StringRef S);

  llvm::Module &module() { return M; }
  llvm::Type *intPtrTy() const { return IntPtrTy; }

private:
  llvm::FunctionCallee declare(llvm::StringRef Name, llvm::FunctionType *Ty);

  llvm::Module &M;
  bool Weak;
  llvm::Type *IntPtrTy;
  llvm::StringMap<llvm::Constant *> Strings;
};

} // namespace ptm

#endif
