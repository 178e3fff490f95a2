; Two regions one after the other in one function: each gets its own
; checkpoint, __ptm_setjmp, begin and commit, and each retry edge goes back to its
; own restart block.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@a = global i32 0
@b = global i32 0

define void @f() {
entry:
  call void @__ptm_region_begin()
  store i32 1, ptr @a
  call void @__ptm_region_end()
  store i32 9, ptr @a
  call void @__ptm_region_begin()
  store i32 2, ptr @b
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      [[BUF1:%.*]] = call ptr @__ptm_tx_checkpoint()
; CHECK-NEXT: call i32 @__ptm_setjmp(ptr [[BUF1]])
; CHECK-NEXT: br label %[[R1:.*]]
; CHECK:      [[R1]]:
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @a, i32 1)
; CHECK-NEXT: [[C1:%.*]] = call i32 @__ptm_tx_commit()
; CHECK-NEXT: [[T1:%.*]] = icmp ne i32 [[C1]], 0
; CHECK-NEXT: br i1 [[T1]], label %[[R1]], label %[[D1:.*]]
; CHECK:      [[D1]]:
; CHECK-NEXT: store i32 9, ptr @a
; CHECK-NEXT: [[BUF2:%.*]] = call ptr @__ptm_tx_checkpoint()
; CHECK-NEXT: call i32 @__ptm_setjmp(ptr [[BUF2]])
; CHECK-NEXT: br label %[[R2:.*]]
; CHECK:      [[R2]]:
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @b, i32 2)
; CHECK-NEXT: [[C2:%.*]] = call i32 @__ptm_tx_commit()
; CHECK-NEXT: [[T2:%.*]] = icmp ne i32 [[C2]], 0
; CHECK-NEXT: br i1 [[T2]], label %[[R2]], label %[[D2:.*]]
; CHECK:      [[D2]]:
; CHECK-NEXT: ret void
; CHECK-NOT:  @__ptm_region_
; CHECK-LABEL: define void @f.ptm()
