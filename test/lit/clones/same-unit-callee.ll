; A same-unit function called inside a region is called as its clone
; "<name>.ptm", whose whole body is instrumented; the original keeps its
; plain body.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define internal void @inc(i32 %d) {
  %v = load i32, ptr @g
  %w = add i32 %v, %d
  store i32 %w, ptr @g
  ret void
}

define void @f() {
entry:
  call void @inc(i32 1)
  call void @__ptm_region_begin()
  call void @inc(i32 2)
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define internal void @inc(i32 %d)
; CHECK-NEXT: %v = load i32, ptr @g
; CHECK-NEXT: %w = add i32 %v, %d
; CHECK-NEXT: store i32 %w, ptr @g
; CHECK-LABEL: define void @f()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @inc(i32 1)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @inc.ptm(i32 2)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-LABEL: define internal void @inc.ptm(i32 %d)
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: [[W:%.*]] = add i32 [[V]], %d
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[W]])
; CHECK-NEXT: ret void
