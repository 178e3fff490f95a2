//===- BarrierBudget.h - how much barrier code an LTO link inlines -*- C++ -*-//
//
// Under LTO the library's barriers (__ptm_read_N, __ptm_write_N) are
// always_inline (runtime/abi/define_runtime.h): every call of one becomes a
// copy of its fast path, which is what makes the benchmarks fast. The copies
// are also what the link then optimizes and compiles: SQLite's amalgamation
// has 40,016 barrier calls, and with ip_orec_lazy (79 instructions to a read)
// its link took 863 s and 2.8 GB against cgl's 92 s; with every call left
// out of line it took 86 s.
//
// BarrierBudgetPass (`ptm-barrier-budget`) runs at the start of the LTO link
// (FullLinkTimeOptimizationEarlyEP: `ptm-config --ldflags` loads the plugin
// into the linker), when the library is known. It weighs each barrier (the
// instructions of its body and of the always_inline functions it calls) and,
// when the program's calls would inline more instructions than the budget,
// keeps inline the calls in the functions with the fewest barrier calls (in
// the deepest loops first within a function) and marks the others noinline
// call sites: they call the library's out-of-line symbol, which does the same
// thing. A program within the budget (every benchmark of the tree) keeps
// every fast path inline.
//
// The budget: -ptm-barrier-budget=N (opt), or PTM_BARRIER_BUDGET=N in the
// environment of the link (an option given to the linker is parsed before it
// loads the plugin); 0 means no limit. PTM_BARRIER_BUDGET_REPORT=1 prints what
// the pass did.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_PLUGIN_BARRIERBUDGET_H
#define PTM_PLUGIN_BARRIERBUDGET_H

#include "llvm/IR/PassManager.h"

namespace ptm {

struct BarrierBudgetPass : llvm::PassInfoMixin<BarrierBudgetPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace ptm

#endif
