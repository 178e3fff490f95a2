; Accesses before PTM_BEGIN() and after PTM_END() stay plain; only the one
; inside the region is instrumented.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f() {
entry:
  store i32 1, ptr @g
  call void @__ptm_region_begin()
  store i32 2, ptr @g
  call void @__ptm_region_end()
  %v = load i32, ptr @g
  store i32 %v, ptr @g
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK-NEXT: entry:
; CHECK-NEXT: store i32 1, ptr @g
; CHECK-NEXT: call ptr @__ptm_tx_checkpoint()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 2)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK:      ptm.committed:
; CHECK-NEXT: %v = load i32, ptr @g
; CHECK-NEXT: store i32 %v, ptr @g
; CHECK-NEXT: ret void
