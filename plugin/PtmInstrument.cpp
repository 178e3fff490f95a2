//===- PtmInstrument.cpp - the ptm lowering pass
//----------------------------===//
//
// PtmLowerPass, before the optimizer. For a module:
//  1. find the transaction regions of every function (TxRegions);
//  2. decide and make the clones (CloneBuilder), copying uninstrumented bodies;
//  3. instrument every clone entirely (its by-value arguments copied into
//     its own frame first: ByvalArguments), and the regions of the originals
//     (AccessInstrumenter);
//  4. turn region markers into checkpoint/begin/commit with the retry edge,
//     restoring the locals a re-execution needs (LocalRestoring,
//     RegionLowering);
//  5. register the clones with the runtime.
//
//===----------------------------------------------------------------------===//

#include "PtmInstrument.h"
#include "AccessInstrumenter.h"
#include "ByvalArguments.h"
#include "CalleeClassifier.h"
#include "CloneBuilder.h"
#include "Diagnostics.h"
#include "LocalRestoring.h"
#include "RegionLowering.h"
#include "RuntimeCallbacks.h"
#include "StackPrivacy.h"
#include "TxIRBuilder.h"
#include "TxRegions.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/DomTreeUpdater.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <memory>

using namespace llvm;

#define DEBUG_TYPE "ptm-instrument"

STATISTIC(NumClones, "Transactional clones");

static cl::opt<bool> ClCloneExported(
    "ptm-clone-exported", cl::init(true), cl::Hidden,
    cl::desc("Clone every external or address-taken function, so that other "
             "units and function pointers find a transactional version"));

namespace ptm {

namespace {

const char *const InstrumentedFlag = "ptm.instrumented";

// Whether the unit uses ptm at all (regions, the API, PTM_SAFE): if not, its
// clones reference the runtime weakly so that it links without a library.
bool usesPtm(Module &M, const CalleeClassifier &CC, bool HasRegions) {
  if (HasRegions || CC.hasAnnotations())
    return true;
  for (Function &F : M)
    if (CalleeClassifier::isRuntimeName(F.getName()) && !F.use_empty())
      return true;
  return false;
}

} // namespace

void verifyOrDie(Module &M, StringRef PassName) {
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(M, &OS))
    report_fatal_error(Twine("ptm: internal error: ") + PassName +
                       " produced invalid IR: " + OS.str());
}

PreservedAnalyses PtmLowerPass::run(Module &M, ModuleAnalysisManager &) {
  // Loaded both by -fplugin and -fpass-plugin, the pass may be scheduled twice.
  if (M.getModuleFlag(InstrumentedFlag))
    return PreservedAnalyses::all();

  CalleeClassifier CC(M);
  normalizeMarkers(M);

  SmallVector<std::pair<Function *, std::unique_ptr<TxRegions>>, 8> Regions;
  for (Function &F : M) {
    if (F.isDeclaration() || CC.isUninstrumented(F))
      continue;
    auto R = std::make_unique<TxRegions>(F, RegionMarkers::source(),
                                         /*Warn=*/true);
    if (!R->empty())
      Regions.emplace_back(&F, std::move(R));
  }

  RuntimeCallbacks RT(M, /*Weak=*/!usesPtm(M, CC, !Regions.empty()));
  CloneBuilder Clones(M, CC);
  for (auto &[F, R] : Regions)
    for (Instruction *I : R->InTx)
      if (auto *CB = dyn_cast<CallBase>(I))
        if (Function *Callee = CB->getCalledFunction())
          Clones.require(*Callee, /*Needed=*/true);
  Clones.requireRoots(ClCloneExported);
  Clones.build();
  NumClones += Clones.clones().size();

  StackPrivacy Privacy;
  AccessInstrumenter AI(M, RT, CC, Clones, Privacy);
  for (auto &Entry : Clones.clones()) {
    Function *Clone = Entry.second;
    removeMarkers(*Clone);
    SmallVector<Instruction *, 64> All;
    for (Instruction &I : instructions(*Clone))
      All.push_back(&I);
    copyByvalArguments(*Clone); // (plain: after the collection)
    AI.instrument(*Clone, All, /*Quiet=*/!Clones.isNeeded(*Entry.first));
  }
  for (auto &[F, R] : Regions) {
    auto Restore = localsToRestore(*F, *R, Privacy);
    AI.instrument(*F, R->InTx, /*Quiet=*/false);
    lowerRegions(*F, *R, RT, Restore);
  }
  Clones.emitRegistration(RT);

  M.addModuleFlag(Module::Override, InstrumentedFlag, 1);
  verifyOrDie(M, "ptm-lower");
  return PreservedAnalyses::none();
}

} // namespace ptm
