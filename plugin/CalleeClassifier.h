//===- CalleeClassifier.h - what a call in a transaction becomes -*- C++
//-*-===//

#ifndef PTM_PLUGIN_CALLEECLASSIFIER_H
#define PTM_PLUGIN_CALLEECLASSIFIER_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace ptm {

enum class CalleeKind {
  Runtime,     // part of ptm itself (ptm_*, __ptm_*): called as is
  Pure,        // PTM_PURE, memory(none), or a known pure libc function
  Ignored,     // intrinsic without effect on shared memory (dbg, lifetime...)
  MemTransfer, // llvm.memcpy/memmove (+ .inline) and libc memcpy/memmove
  MemSet,      // llvm.memset (+ .inline) and libc memset
  Alloc,       // malloc family and C++ new/delete: transactional versions
  Libc,        // str*/mem* with a __ptm_ version in the runtime
  AtomicCall,  // ptm_atomic(fn, arg)
  Setjmp,      // setjmp/longjmp family: unsupported
  Irrevocable, // I/O and other side effects that cannot be undone
  UnsupportedIntrinsic, // intrinsic that accesses memory in a way not mapped
  Cloned,               // defined here: calls the clone
  External // declared only: clone found at link time or at run time
};

// The replacement of an allocation function: the runtime function and which
// arguments of the original call it takes.
struct AllocReplacement {
  llvm::StringRef Runtime;
  llvm::SmallVector<unsigned, 2> Args;
};

class CalleeClassifier {
public:
  explicit CalleeClassifier(llvm::Module &M);

  CalleeKind classify(const llvm::Function &F) const;
  bool isPure(const llvm::Function &F) const { return Pure.count(&F); }
  bool isSafe(const llvm::Function &F) const { return Safe.count(&F); }
  // Whether the unit marks any function PTM_PURE or PTM_SAFE.
  bool hasAnnotations() const { return !Pure.empty() || !Safe.empty(); }
  // Functions that are never cloned nor instrumented.
  bool isUninstrumented(const llvm::Function &F) const;

  // For CalleeKind::Alloc.
  const AllocReplacement *allocReplacement(llvm::StringRef Name) const;
  // For CalleeKind::Libc: the runtime's name (__ptm_<name>).
  static std::string libcReplacement(llvm::StringRef Name);

  // Part of ptm itself: __ptm_*, the ptm.h API, ptm::detail.
  static bool isRuntimeName(llvm::StringRef Name);
  static bool isRegionBegin(const llvm::Function &F);
  static bool isRegionEnd(const llvm::Function &F);

private:
  llvm::SmallPtrSet<const llvm::Function *, 16> Pure, Safe;
};

} // namespace ptm

#endif
