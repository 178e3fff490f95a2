; A region inside a loop body: the checkpoint is taken on every iteration
; (inside the loop), the retry edge targets the restart block in the loop, and
; the loop's own back edge leaves from after the commit.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f(i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @__ptm_region_begin()
  store i32 %i, ptr @g
  call void @__ptm_region_end()
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

; CHECK-LABEL: define void @f(i32 %n)
; CHECK:      [[LOOP:loop]]:
; CHECK-NEXT: %i = phi i32 [ 0, %entry ], [ %i1, %[[DONE:.*]] ]
; CHECK-NEXT: [[BUF:%.*]] = call ptr @__ptm_tx_checkpoint()
; CHECK-NEXT: call i32 @__ptm_setjmp(ptr [[BUF]])
; CHECK-NEXT: br label %[[R:.*]]
; CHECK:      [[R]]:
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %i)
; CHECK-NEXT: [[C:%.*]] = call i32 @__ptm_tx_commit()
; CHECK-NEXT: [[T:%.*]] = icmp ne i32 [[C]], 0
; CHECK-NEXT: br i1 [[T]], label %[[R]], label %[[DONE]]
; CHECK:      [[DONE]]:
; CHECK-NEXT: %i1 = add i32 %i, 1
; CHECK-NEXT: %c = icmp slt i32 %i1, %n
; CHECK-NEXT: br i1 %c, label %[[LOOP]], label %exit
