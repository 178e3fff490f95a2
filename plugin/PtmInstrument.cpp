//===- PtmInstrument.cpp - the ptm instrumentation pass ---------------------===//
//
// Order of work for a module:
//  1. find the transaction regions of every function (TxRegions);
//  2. decide and make the clones (CloneBuilder), copying uninstrumented bodies;
//  3. instrument every clone entirely, and the regions of the originals
//     (AccessInstrumenter);
//  4. turn region markers into checkpoint/begin/commit with the retry edge,
//     and save the locals an abort must restore;
//  5. register the clones with the runtime.
//
//===----------------------------------------------------------------------===//

#include "PtmInstrument.h"
#include "AccessInstrumenter.h"
#include "CalleeClassifier.h"
#include "CloneBuilder.h"
#include "Diagnostics.h"
#include "RuntimeCallbacks.h"
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
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <memory>

using namespace llvm;

#define DEBUG_TYPE "ptm-instrument"

STATISTIC(NumRegions, "Outermost transaction regions");
STATISTIC(NumClones, "Transactional clones");
STATISTIC(NumSavedLocals, "Locals saved at transaction begin");

static cl::opt<bool> ClCloneExported(
    "ptm-clone-exported", cl::init(true), cl::Hidden,
    cl::desc("Clone every external or address-taken function, so that other "
             "units and function pointers find a transactional version"));
static cl::opt<bool> ClSaveLocals(
    "ptm-save-locals", cl::init(true), cl::Hidden,
    cl::desc("Save locals written inside a transaction so that an abort "
             "restores them"));

namespace ptm {

namespace {

const char *const InstrumentedFlag = "ptm.instrumented";

// Locals of F that an abort must restore: stack slots whose address does not
// escape (so their accesses are not instrumented), that exist before the
// region starts, and that the region may write. A slot whose lifetime starts
// inside the region is private to the transaction and needs nothing.
SetVector<AllocaInst *> localsToSave(Function &F, const TxRegions &R,
                                     AccessInstrumenter &AI) {
  SetVector<AllocaInst *> Saves;
  if (!ClSaveLocals)
    return Saves;
  SmallPtrSet<const Instruction *, 32> InTx(R.InTx.begin(), R.InTx.end());
  DominatorTree DT(F);
  for (Instruction &I : F.getEntryBlock()) {
    auto *A = dyn_cast<AllocaInst>(&I);
    if (!A || !A->isStaticAlloca() || !AI.isPrivateAlloca(A))
      continue;
    bool Dominates = all_of(R.OuterBegins, [&](CallInst *B) {
      return DT.dominates(A, B);
    });
    if (!Dominates)
      continue;
    bool Written = false, StartsInside = false;
    SmallVector<const Value *, 8> Work{A};
    SmallPtrSet<const Value *, 8> Seen{A};
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val();
      for (const User *U : V->users()) {
        const auto *UI = dyn_cast<Instruction>(U);
        if (!UI)
          continue;
        if (isa<GetElementPtrInst>(UI) || isa<BitCastInst>(UI) ||
            isa<AddrSpaceCastInst>(UI) || isa<PHINode>(UI) ||
            isa<SelectInst>(UI)) {
          if (Seen.insert(UI).second)
            Work.push_back(UI);
          continue;
        }
        if (!InTx.count(UI))
          continue;
        if (const auto *II = dyn_cast<IntrinsicInst>(UI)) {
          if (II->getIntrinsicID() == Intrinsic::lifetime_start) {
            StartsInside = true;
            continue;
          }
          if (II->isLifetimeStartOrEnd() || II->isAssumeLikeIntrinsic())
            continue;
        }
        if (isa<LoadInst>(UI))
          continue;
        Written = true; // store, memory intrinsic, call, atomic
      }
    }
    if (Written && !StartsInside)
      Saves.insert(A);
  }
  return Saves;
}

// Turns the markers of F's outermost regions into
//     %buf = __ptm_tx_checkpoint(); _setjmp(%buf)
//   restart:
//     __ptm_tx_begin(where); __ptm_tx_save_local(...)...
//     ... region ...
//     %retry = __ptm_tx_commit(); br %retry != 0 ? restart : after
// and removes nested markers.
void lowerRegions(Function &F, TxRegions &R,
                  const SetVector<AllocaInst *> &Saves, RuntimeCallbacks &RT) {
  const DataLayout &DL = F.getParent()->getDataLayout();
  DenseMap<CallInst *, BasicBlock *> Restart;
  for (CallInst *B : R.OuterBegins) {
    BasicBlock *Head = B->getParent();
    BasicBlock *Body = SplitBlock(Head, B->getIterator(), static_cast<DomTreeUpdater *>(nullptr), nullptr, nullptr,
                                  "ptm.restart");
    TxIRBuilder IRB(Head->getTerminator());
    Value *Buf = IRB.CreateCall(RT.Checkpoint, {});
    CallInst *SJ = IRB.CreateCall(RT.Setjmp, {Buf});
    SJ->addFnAttr(Attribute::ReturnsTwice);
    IRB.moveTo(B);
    IRB.CreateCall(RT.TxBegin, {RT.string(describeLocation(*B))});
    for (AllocaInst *A : Saves) {
      uint64_t Size = DL.getTypeAllocSize(A->getAllocatedType()) *
                      cast<ConstantInt>(A->getArraySize())->getZExtValue();
      IRB.CreateCall(RT.SaveLocal, {A, ConstantInt::get(RT.intPtrTy(), Size)});
      ++NumSavedLocals;
    }
    Restart[B] = Body;
    B->eraseFromParent();
    ++NumRegions;
  }

  // Several begins reaching one end (code duplicated by the optimizer): the
  // retry edge goes back to the begin that ran, recorded in a private slot.
  AllocaInst *BeginId = nullptr;
  DenseMap<CallInst *, unsigned> IdOf;
  for (auto &E : R.BeginsOf)
    if (E.second.size() > 1 && !BeginId) {
      TxIRBuilder IRB(&*F.getEntryBlock().getFirstInsertionPt());
      BeginId = IRB.CreateAlloca(IRB.getInt32Ty(), nullptr, "ptm.begin.id");
      unsigned Id = 0;
      for (auto &Entry : Restart) {
        IdOf[Entry.first] = Id;
        TxIRBuilder At(&*Entry.second->getFirstInsertionPt());
        At.CreateStore(At.getInt32(Id++), BeginId);
      }
    }

  for (CallInst *E : R.OuterEnds) {
    BasicBlock *Head = E->getParent();
    BasicBlock *After = SplitBlock(Head, E->getNextNode()->getIterator(), static_cast<DomTreeUpdater *>(nullptr),
                                   nullptr, nullptr, "ptm.committed");
    TxIRBuilder IRB(E);
    Value *Retry = IRB.CreateCall(RT.TxCommit, {}, "ptm.retry");
    Head->getTerminator()->eraseFromParent();
    IRB.SetInsertPoint(Head);
    IRB.ensureLocation();
    const auto &Begins = R.BeginsOf[E];
    if (Begins.size() == 1) {
      IRB.CreateCondBr(IRB.CreateIsNotNull(Retry), Restart[Begins[0]], After);
    } else if (Begins.empty()) {
      IRB.CreateBr(After);
    } else {
      BasicBlock *Dispatch =
          BasicBlock::Create(F.getContext(), "ptm.retry.dispatch", &F);
      IRB.CreateCondBr(IRB.CreateIsNotNull(Retry), Dispatch, After);
      TxIRBuilder D(Dispatch);
      Value *Id = D.CreateLoad(D.getInt32Ty(), BeginId);
      SwitchInst *SW = D.CreateSwitch(Id, Restart[Begins[0]], Begins.size());
      for (CallInst *B : Begins)
        SW->addCase(D.getInt32(IdOf[B]), Restart[B]);
    }
    E->eraseFromParent();
  }

  for (CallInst *N : R.Nested)
    N->eraseFromParent();
}

// Markers inside a clone: the whole clone runs in a transaction, so regions
// in it are nested (flat) and disappear.
void removeMarkers(Function &F) {
  SmallVector<CallInst *, 4> Markers;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (Function *Callee = CI->getCalledFunction())
        if (CalleeClassifier::isRegionBegin(*Callee) ||
            CalleeClassifier::isRegionEnd(*Callee))
          Markers.push_back(CI);
  for (CallInst *CI : Markers)
    CI->eraseFromParent();
}

// Markers are declared nothrow in ptm.h, but a declaration without it (or an
// older header) gives `invoke`s in C++: make them plain calls.
void normalizeMarkers(Module &M) {
  for (const char *Name : {"__ptm_region_begin", "__ptm_region_end",
                           "__ptm_region_depth", "__ptm_region_unwind"}) {
    Function *F = M.getFunction(Name);
    if (!F)
      continue;
    SmallVector<InvokeInst *, 4> Invokes;
    for (User *U : F->users())
      if (auto *II = dyn_cast<InvokeInst>(U))
        if (II->getCalledFunction() == F)
          Invokes.push_back(II);
    for (InvokeInst *II : Invokes)
      changeToCall(II);
  }
}

// Whether the unit uses ptm at all (regions, the API, PTM_SAFE): if not, its
// clones reference the runtime weakly so that it links without a library.
bool usesPtm(Module &M, bool HasRegions) {
  if (HasRegions)
    return true;
  for (Function &F : M)
    if (CalleeClassifier::isRuntimeName(F.getName()) && !F.use_empty())
      return true;
  return M.getGlobalVariable("llvm.global.annotations") != nullptr;
}

} // namespace

PreservedAnalyses PtmInstrumentPass::run(Module &M, ModuleAnalysisManager &) {
  // Loaded both by -fplugin and -fpass-plugin, the pass may be scheduled twice.
  if (M.getModuleFlag(InstrumentedFlag))
    return PreservedAnalyses::all();

  CalleeClassifier CC(M);
  normalizeMarkers(M);

  SmallVector<std::pair<Function *, std::unique_ptr<TxRegions>>, 8> Regions;
  for (Function &F : M) {
    if (F.isDeclaration() || CC.isUninstrumented(F))
      continue;
    auto R = std::make_unique<TxRegions>(F);
    if (!R->empty())
      Regions.emplace_back(&F, std::move(R));
  }

  RuntimeCallbacks RT(M, /*Weak=*/!usesPtm(M, !Regions.empty()));
  CloneBuilder Clones(M, CC);
  for (auto &[F, R] : Regions)
    for (Instruction *I : R->InTx)
      if (auto *CB = dyn_cast<CallBase>(I))
        if (Function *Callee = CB->getCalledFunction())
          Clones.require(*Callee, /*Needed=*/true);
  Clones.requireRoots(ClCloneExported);
  Clones.build();
  NumClones += Clones.clones().size();

  AccessInstrumenter AI(M, RT, CC, Clones);
  for (auto &Entry : Clones.clones()) {
    Function *Clone = Entry.second;
    removeMarkers(*Clone);
    SmallVector<Instruction *, 64> All;
    for (Instruction &I : instructions(*Clone))
      All.push_back(&I);
    AI.instrument(*Clone, All, /*Quiet=*/!Clones.isNeeded(*Entry.first));
  }
  for (auto &[F, R] : Regions) {
    SetVector<AllocaInst *> Saves = localsToSave(*F, *R, AI);
    AI.instrument(*F, R->InTx, /*Quiet=*/false);
    lowerRegions(*F, *R, Saves, RT);
  }
  Clones.emitRegistration(RT);

  M.addModuleFlag(Module::Override, InstrumentedFlag, 1);
  // Clang's release builds do not verify the IR after the optimizer: check
  // here, so that a bug of the pass is a clear internal error and never a
  // miscompiled program.
  std::string Broken;
  raw_string_ostream OS(Broken);
  if (verifyModule(M, &OS))
    report_fatal_error(Twine("ptm: internal error: the instrumented module "
                             "is not valid IR: ") +
                       OS.str());
  return PreservedAnalyses::none();
}

} // namespace ptm
