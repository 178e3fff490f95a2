//===- BarrierBudget.cpp - how much barrier code an LTO link inlines ------===//
//
// See BarrierBudget.h.
//
//===----------------------------------------------------------------------===//

#include "BarrierBudget.h"
#include "LibraryBarriers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>

using namespace llvm;

// The default: every call of cgl's fast paths in SQLite (563,001
// instructions), a quarter of ip_orec_lazy's (4,061,558), and several times
// what any program of the tree inlines.
static cl::opt<uint64_t> ClBudget(
    "ptm-barrier-budget", cl::init(1000000),
    cl::desc("instructions of barrier fast paths an LTO link may inline "
             "(0: no limit; PTM_BARRIER_BUDGET in the environment wins)"));

namespace ptm {
namespace {

// The instructions a call of F inlines: its own and, recursively, those of the
// always_inline functions it calls (what the inliner copies with it).
class InlineSize {
public:
  uint64_t of(Function &F) {
    auto It = Memo.find(&F);
    if (It != Memo.end())
      return It->second;
    Memo[&F] = 0; // (a recursive always_inline cycle adds nothing)
    uint64_t N = 0;
    for (Instruction &I : instructions(F)) {
      if (I.isDebugOrPseudoInst())
        continue;
      ++N;
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          if (!Callee->isDeclaration() &&
              Callee->hasFnAttribute(Attribute::AlwaysInline))
            N += of(*Callee);
    }
    return Memo[&F] = N;
  }

private:
  DenseMap<const Function *, uint64_t> Memo;
};

struct Site {
  CallBase *Call;
  uint64_t Cost;
  unsigned LoopDepth;
  unsigned CallerSites; // barrier calls in the calling function
  unsigned Order;       // (a stable tie-break)
};

uint64_t budget() {
  if (const char *Env = std::getenv("PTM_BARRIER_BUDGET"); Env && *Env) {
    char *End = nullptr;
    unsigned long long N = std::strtoull(Env, &End, 10);
    if (End && *End == '\0')
      return N;
    errs() << "ptm: PTM_BARRIER_BUDGET='" << Env
           << "' is not a number: the budget stays " << ClBudget << "\n";
  }
  return ClBudget;
}

} // namespace

PreservedAnalyses BarrierBudgetPass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  // The barriers the library defines here, with their weights; none when the
  // program is linked with the shared library (nothing to inline).
  InlineSize Size;
  DenseMap<const Function *, uint64_t> Barriers;
  for (Function *F : libraryBarriers(M))
    Barriers[F] = Size.of(*F);
  if (Barriers.empty())
    return PreservedAnalyses::all();

  // Every call of one, by caller in the module's order (the result must not
  // depend on where the link's allocations landed).
  std::vector<std::pair<Function *, SmallVector<CallBase *, 8>>> ByCaller;
  uint64_t Total = 0;
  unsigned NumCalls = 0;
  for (Function &Caller : M) {
    if (Caller.isDeclaration() || Barriers.count(&Caller))
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (Instruction &I : instructions(Caller))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (auto It = Barriers.find(CB->getCalledFunction());
            It != Barriers.end() && !CB->isNoInline()) {
          Calls.push_back(CB);
          Total += It->second;
        }
    NumCalls += Calls.size();
    if (!Calls.empty())
      ByCaller.emplace_back(&Caller, std::move(Calls));
  }
  uint64_t Budget = budget();
  bool Report = std::getenv("PTM_BARRIER_BUDGET_REPORT") != nullptr;
  if (Budget == 0 || Total <= Budget) {
    if (Report)
      errs() << "ptm: LTO inlines all " << NumCalls << " barrier calls ("
             << Total << " instructions; budget " << Budget << ")\n";
    return PreservedAnalyses::all();
  }

  // Inline first the calls in the functions with the fewest barrier calls
  // (optimizing and compiling a function costs more than in proportion to
  // its size, and a program's small functions are its hot helpers), within a
  // function those in the deepest loops.
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  std::vector<Site> Sites;
  Sites.reserve(NumCalls);
  for (auto &[Caller, Calls] : ByCaller) {
    LoopInfo &LI = FAM.getResult<LoopAnalysis>(*Caller);
    for (CallBase *CB : Calls)
      Sites.push_back({CB, Barriers.lookup(CB->getCalledFunction()),
                       LI.getLoopDepth(CB->getParent()),
                       static_cast<unsigned>(Calls.size()),
                       static_cast<unsigned>(Sites.size())});
  }
  std::sort(Sites.begin(), Sites.end(), [](const Site &A, const Site &B) {
    if (A.CallerSites != B.CallerSites)
      return A.CallerSites < B.CallerSites;
    if (A.LoopDepth != B.LoopDepth)
      return A.LoopDepth > B.LoopDepth;
    return A.Order < B.Order;
  });
  uint64_t Used = 0;
  unsigned OutOfLine = 0;
  for (Site &S : Sites) {
    if (Used + S.Cost <= Budget) {
      Used += S.Cost;
      continue;
    }
    S.Call->setIsNoInline();
    ++OutOfLine;
  }
  if (Report)
    errs() << "ptm: LTO inlines " << NumCalls - OutOfLine << " of " << NumCalls
           << " barrier calls (" << Used << " of " << Total
           << " instructions; budget " << Budget << ")\n";
  // Only call-site attributes changed: no analysis is out of date.
  return PreservedAnalyses::all();
}

} // namespace ptm
