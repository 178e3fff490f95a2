; One begin and two ends (PTM_END() duplicated into both arms of a branch):
; each end becomes a commit whose retry edge goes back to the one restart
; block; no dispatch slot is needed.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f(i1 %c) {
entry:
  call void @__ptm_region_begin()
  br i1 %c, label %a, label %b
a:
  store i32 1, ptr @g
  call void @__ptm_region_end()
  ret void
b:
  store i32 2, ptr @g
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(i1 %c)
; CHECK-NOT:  ptm.begin.id
; CHECK:      br label %[[R:.*]]
; CHECK:      [[R]]:
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: br i1 %c, label %a, label %b
; CHECK:      a:
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK-NEXT: [[CA:%.*]] = call i32 @__ptm_tx_commit()
; CHECK-NEXT: [[TA:%.*]] = icmp ne i32 [[CA]], 0
; CHECK-NEXT: br i1 [[TA]], label %[[R]], label
; CHECK:      b:
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 2)
; CHECK-NEXT: [[CB:%.*]] = call i32 @__ptm_tx_commit()
; CHECK-NEXT: [[TB:%.*]] = icmp ne i32 [[CB]], 0
; CHECK-NEXT: br i1 [[TB]], label %[[R]], label
