; The optimizer duplicated PTM_BEGIN() into both arms of a branch, so two
; begins reach one end: each restart block records its id in ptm.begin.id, and
; the retry edge of the single commit dispatches on it back to the begin that
; ran.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f(i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  call void @__ptm_region_begin()
  store i32 1, ptr @g
  br label %j
b:
  call void @__ptm_region_begin()
  store i32 2, ptr @g
  br label %j
j:
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(i1 %c)
; CHECK:      [[ID:%ptm.begin.id.*]] = alloca i32
; CHECK:      a:
; CHECK-NEXT: [[BUFA:%.*]] = call ptr @__ptm_tx_checkpoint()
; CHECK-NEXT: call i32 @__ptm_setjmp(ptr [[BUFA]])
; CHECK-NEXT: br label %[[RA:.*]]
; CHECK:      [[RA]]:
; CHECK-NEXT: store i32 [[IDA:[01]]], ptr [[ID]]
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK:      b:
; CHECK-NEXT: [[BUFB:%.*]] = call ptr @__ptm_tx_checkpoint()
; CHECK-NEXT: call i32 @__ptm_setjmp(ptr [[BUFB]])
; CHECK-NEXT: br label %[[RB:.*]]
; CHECK:      [[RB]]:
; CHECK-NEXT: store i32 [[IDB:[01]]], ptr [[ID]]
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 2)
; CHECK:      j:
; CHECK-NEXT: [[R:%.*]] = call i32 @__ptm_tx_commit()
; CHECK-NEXT: [[T:%.*]] = icmp ne i32 [[R]], 0
; CHECK-NEXT: br i1 [[T]], label %[[DISPATCH:.*]], label %[[DONE:.*]]
; CHECK:      [[DISPATCH]]:
; CHECK-NEXT: [[V:%.*]] = load i32, ptr [[ID]]
; CHECK-NEXT: switch i32 [[V]], label %{{.*}} [
; CHECK-DAG:    i32 [[IDA]], label %[[RA]]
; CHECK-DAG:    i32 [[IDB]], label %[[RB]]
; CHECK:      ]
