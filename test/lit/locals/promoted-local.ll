; Once the optimizer promotes a restored local to an SSA value, every attempt
; starts from the value it had before the region: ptm.restart has no phi that
; would merge it with the value of an aborted attempt (the retry edge carries
; none), so a re-execution after a failed commit, or after a longjmp that
; leaves a spill slot as the attempt left it, sees the pre-region value.
; RUN: %ptm_opt -passes=ptm-instrument,sroa -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define i32 @f(i32 %a) {
entry:
  %x = alloca i32
  store i32 %a, ptr %x
  call void @__ptm_region_begin()
  %v = load i32, ptr %x
  %w = add i32 %v, 1
  store i32 %w, ptr %x
  store i32 %w, ptr @g
  call void @__ptm_region_end()
  %r = load i32, ptr %x
  ret i32 %r
}

; CHECK-LABEL: define i32 @f(i32 %a)
; CHECK-NOT:  alloca
; CHECK:      call i32 @__ptm_setjmp(
; CHECK:      ptm.restart:
; CHECK-NOT:  phi
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: %w = add i32 %a, 1
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %w)
; CHECK:      ptm.committed:
; CHECK-NEXT: ret i32 %w
