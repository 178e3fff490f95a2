//===- ByvalArguments.h - by-value arguments of a clone ---------*- C++ -*-===//
//
// An argument passed by value in memory (`byval`: a structure too large for
// registers) lives in its caller's frame, in the area where the caller
// stores the stack arguments of every call with code no barrier sees. A
// clone that wrote such an argument through the barriers would leave a redo
// entry there that a later call's arguments at the same addresses do not
// replace; the function holding the region is the one whose argument area
// outlives the calls (its frame is not the transaction's private stack). So
// every clone copies its byval arguments into slots of its own frame at
// entry, with plain code, and works on the copies: a copy that does not
// escape stays private (StackPrivacy), one that does is in the transaction's
// private stack (written in place by the redo libraries).
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_BYVALARGUMENTS_H
#define PTM_PLUGIN_BYVALARGUMENTS_H

namespace llvm {
class Function;
} // namespace llvm

namespace ptm {

// Copies F's byval arguments into entry-block slots and points every use
// at the copies. The copies are plain: call it after collecting the
// instructions to instrument.
void copyByvalArguments(llvm::Function &F);

} // namespace ptm

#endif
