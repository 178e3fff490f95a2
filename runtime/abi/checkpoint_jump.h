//===- checkpoint_jump.h - the checkpoint, saved and resumed ----*- C++ -*-===//
//
// __ptm_setjmp (ptm_abi.h) saves what the caller needs to resume at its
// checkpoint: the callee-saved registers, the stack pointer and the return
// address, in the first 64 bytes of the thread's checkpoint buffer (a glibc
// jmp_buf), and a tag in the next word. It is glibc's _setjmp less what a
// transaction does not need: no pointer mangling (the buffer is the
// runtime's, in thread-local memory), no signal-mask word to clear, no PLT
// call; about 2.5 ns less per transaction (docs/ABI.md "The checkpoint").
//
// checkpoint_resume returns to it, with VALUE as __ptm_setjmp's result. A
// buffer without the tag was saved by glibc's _setjmp (code instrumented by
// an older plugin, or a hand-written ABI call): it goes back through glibc's
// longjmp. Neither form unwinds a CET shadow stack (nor does a plain
// _setjmp/longjmp pair on glibc 2.36).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_CHECKPOINT_JUMP_H
#define PTM_RUNTIME_ABI_CHECKPOINT_JUMP_H

#include <cstdint>

namespace ptm {

// The tag __ptm_setjmp stores in the 32-bit word after the registers (glibc's
// _setjmp stores 0 there: its "signal mask saved" flag).
constexpr uint32_t kCheckpointTag = 0x4a4d5450; // "PTMJ"
constexpr unsigned kCheckpointTagWord = 16;     // (in 32-bit words)

[[noreturn]] void checkpoint_resume(void *buf, int value);

} // namespace ptm

#endif // PTM_RUNTIME_ABI_CHECKPOINT_JUMP_H
