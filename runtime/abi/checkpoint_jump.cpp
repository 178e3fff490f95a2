//===- checkpoint_jump.cpp - the checkpoint, saved and resumed ------------===//

#include "runtime/abi/checkpoint_jump.h"

#include <csetjmp>

// The buffer's layout: rbx, rbp, r12, r13, r14, r15, the caller's stack
// pointer (after the return), the return address; then the tag.
static_assert(sizeof(jmp_buf) >= 72, "the checkpoint buffer is a jmp_buf");

extern "C" [[noreturn]] void ptm_checkpoint_resume_tagged(void *buf, int value);

__asm__(R"(
  .text
  .p2align 4
  .globl __ptm_setjmp
  .type __ptm_setjmp, @function
__ptm_setjmp:
  movq %rbx, 0(%rdi)
  movq %rbp, 8(%rdi)
  movq %r12, 16(%rdi)
  movq %r13, 24(%rdi)
  movq %r14, 32(%rdi)
  movq %r15, 40(%rdi)
  leaq 8(%rsp), %rdx
  movq %rdx, 48(%rdi)
  movq (%rsp), %rdx
  movq %rdx, 56(%rdi)
  movl $0x4a4d5450, 64(%rdi)
  xorl %eax, %eax
  ret
  .size __ptm_setjmp, .-__ptm_setjmp

  .p2align 4
  .globl ptm_checkpoint_resume_tagged
  .hidden ptm_checkpoint_resume_tagged
  .type ptm_checkpoint_resume_tagged, @function
ptm_checkpoint_resume_tagged:
  movl %esi, %eax
  movq 0(%rdi), %rbx
  movq 8(%rdi), %rbp
  movq 16(%rdi), %r12
  movq 24(%rdi), %r13
  movq 32(%rdi), %r14
  movq 40(%rdi), %r15
  movq 48(%rdi), %rsp
  jmpq *56(%rdi)
  .size ptm_checkpoint_resume_tagged, .-ptm_checkpoint_resume_tagged
)");

namespace ptm {

void checkpoint_resume(void *buf, int value) {
  if (static_cast<const uint32_t *>(buf)[kCheckpointTagWord] == kCheckpointTag)
    ptm_checkpoint_resume_tagged(buf, value);
  longjmp(static_cast<__jmp_buf_tag *>(buf), value);
}

} // namespace ptm
