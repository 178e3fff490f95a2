; A PTM_PURE function (annotate "ptm_pure") is called as is inside a region,
; its body is not instrumented, and it gets no clone.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0
@.pure = private unnamed_addr constant [9 x i8] c"ptm_pure\00", section "llvm.metadata"
@.file = private unnamed_addr constant [4 x i8] c"t.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @logit, ptr @.pure, ptr @.file, i32 1, ptr null }], section "llvm.metadata"

define void @logit(i32 %v) {
  store i32 %v, ptr @g
  ret void
}

define void @f() {
entry:
  call void @__ptm_region_begin()
  call void @logit(i32 4)
  call void @__ptm_region_end()
  ret void
}

; CHECK-NOT:  @logit.ptm
; CHECK-LABEL: define void @logit(i32 %v)
; CHECK-NEXT: store i32 %v, ptr @g
; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @logit(i32 4)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  @logit.ptm
