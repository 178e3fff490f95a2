//===- LibraryBarriers.h - the barriers an LTO link inlines ---*- C++ -*-===//
//
// The library's __ptm_read_N and __ptm_write_N that this module defines
// always_inline: linked with -flto against the library's bitcode archive
// (runtime/abi/define_runtime.h). None when the program is linked with the
// shared library, which has no bodies to inline.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_PLUGIN_LIBRARYBARRIERS_H
#define PTM_PLUGIN_LIBRARYBARRIERS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

namespace ptm {

inline llvm::SmallVector<llvm::Function *, 10>
libraryBarriers(llvm::Module &M) {
  llvm::SmallVector<llvm::Function *, 10> Barriers;
  for (const char *Kind : {"read", "write"})
    for (const char *N : {"1", "2", "4", "8", "n"}) {
      llvm::Function *F =
          M.getFunction((llvm::Twine("__ptm_") + Kind + "_" + N).str());
      if (F && !F->isDeclaration() &&
          F->hasFnAttribute(llvm::Attribute::AlwaysInline))
        Barriers.push_back(F);
    }
  return Barriers;
}

} // namespace ptm

#endif
