//===- StackPrivacy.cpp - memory that needs no instrumentation
//--------------===//

#include "StackPrivacy.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/CaptureTracking.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> ClSkipPrivate(
    "ptm-skip-private-stack", cl::init(true), cl::Hidden,
    cl::desc("Leave accesses to non-escaping stack slots uninstrumented"));

namespace ptm {

static constexpr unsigned MaxLookup = 12;
static const char *const TemporaryKind = "ptm.temporary";

void markTemporary(AllocaInst *AI) {
  AI->setMetadata(TemporaryKind, MDNode::get(AI->getContext(), {}));
}

bool isTemporary(const AllocaInst *AI) {
  return AI->getMetadata(TemporaryKind) != nullptr;
}

namespace {
// Capture tracking in which the va_* intrinsics capture nothing: va_start
// and va_copy store into the list they are given (and va_copy reads its
// source), va_end does nothing on the targets we know; none of them lets
// the list's address out. A va_list that only they and the code of va_arg
// touch is private: va_start's stores and va_arg's loads and stores then
// all stay plain, and agree.
struct PrivacyTracker : CaptureTracker {
  bool Captured = false;
  void tooManyUses() override { Captured = true; }
  bool captured(const Use *U) override {
    if (const auto *II = dyn_cast<IntrinsicInst>(U->getUser()))
      switch (II->getIntrinsicID()) {
      case Intrinsic::vastart:
      case Intrinsic::vacopy:
      case Intrinsic::vaend:
        return false;
      default:
        break;
      }
    Captured = true;
    return true;
  }
};
} // namespace

bool StackPrivacy::isPrivateAlloca(const AllocaInst *AI) {
  auto It = Cache.find(AI);
  if (It != Cache.end())
    return It->second;
  // A dynamic alloca (a VLA, alloca()) may hold data from before a region
  // that an abort cannot copy back (LocalRestoring copies fixed-size slots
  // only): its accesses go through barriers, so the library's log restores
  // it.
  bool Private = false;
  if (AI->isStaticAlloca()) {
    PrivacyTracker Tracker;
    PointerMayBeCaptured(AI, &Tracker);
    Private = !Tracker.Captured;
  }
  Cache[AI] = Private;
  return Private;
}

bool StackPrivacy::isPrivate(const Value *Ptr) {
  if (!ClSkipPrivate)
    return false;
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, MaxLookup);
  if (Objects.empty())
    return false;
  for (const Value *O : Objects) {
    const auto *AI = dyn_cast<AllocaInst>(O);
    if (!AI || !isPrivateAlloca(AI))
      return false;
  }
  return true;
}

bool StackPrivacy::isConstantMemory(const Value *Ptr) {
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, nullptr, MaxLookup);
  if (Objects.empty())
    return false;
  for (const Value *O : Objects) {
    const auto *GV = dyn_cast<GlobalVariable>(O);
    if (!GV || !GV->isConstant())
      return false;
  }
  return true;
}

} // namespace ptm
