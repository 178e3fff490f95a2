; A program linked with the shared library has no barrier bodies to inline:
; the budget pass changes nothing, whatever the budget.
; RUN: env PTM_BARRIER_BUDGET=1 PTM_BARRIER_BUDGET_REPORT=1 %ptm_opt -passes=ptm-barrier-budget -S %s 2>&1 | FileCheck %s --implicit-check-not=noinline --implicit-check-not=ptm:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare i64 @__ptm_read_8(ptr)

; CHECK: define i64 @reader.ptm
; CHECK-NEXT: call i64 @__ptm_read_8(ptr %p){{$}}
define i64 @reader.ptm(ptr %p) {
  %v = call i64 @__ptm_read_8(ptr %p)
  ret i64 %v
}
