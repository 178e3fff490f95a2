//===- CloneBuilder.h - transactional clones of functions ------*- C++ -*-===//
//
// A function called inside a transaction runs as its clone "<name>.ptm", in
// which every instruction is transactional. Cloned: every function of the unit
// reachable from a transaction, every PTM_SAFE function, the functions passed
// to ptm_atomic, and (by default) every function another unit or a function
// pointer could reach: external or address-taken definitions. Clones of
// external functions are external, so other units bind to them statically
// (always under LTO); a constructor registers every (original, clone) pair for
// the calls resolved at run time.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_CLONEBUILDER_H
#define PTM_PLUGIN_CLONEBUILDER_H

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace ptm {

class CalleeClassifier;
class RuntimeCallbacks;

class CloneBuilder {
public:
  CloneBuilder(llvm::Module &M, const CalleeClassifier &CC);

  // Requests a clone of F and, transitively, of its same-unit callees.
  // Needed: F runs inside a transaction of this unit (or is PTM_SAFE); the
  // other clones are made speculatively for other units and function
  // pointers, and their unsupported constructs are not warned about at
  // compile time (the runtime still reports them if they run).
  void require(llvm::Function &F, bool Needed);
  // Requests clones of PTM_SAFE functions and, if CloneExported, of every
  // external or address-taken definition.
  void requireRoots(bool CloneExported);
  // Makes the clones. Their bodies are copies of the originals, not yet
  // instrumented.
  void build();

  // Name of the clone of a function named Name.
  static std::string cloneName(llvm::StringRef Name);

  bool isNeeded(const llvm::Function &F) const { return Needed.count(&F); }

  // The clone of F (after build), or null.
  llvm::Function *cloneOf(const llvm::Function &F) const;
  const llvm::MapVector<llvm::Function *, llvm::Function *> &clones() const {
    return Clones;
  }

  // Emits the constructor that registers the clones with the runtime.
  void emitRegistration(RuntimeCallbacks &RT);

private:
  bool cloneable(const llvm::Function &F) const;

  llvm::Module &M;
  const CalleeClassifier &CC;
  llvm::MapVector<llvm::Function *, llvm::Function *> Clones;
  llvm::SmallPtrSet<const llvm::Function *, 16> Needed;
};

} // namespace ptm

#endif
