; A load of a constant global inside a region is left as it is (constant
; memory cannot conflict), while a load of a mutable global is instrumented.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@c = constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@g = global i32 0

define void @f(i64 %i) {
entry:
  call void @__ptm_region_begin()
  %p = getelementptr [4 x i32], ptr @c, i64 0, i64 %i
  %v = load i32, ptr %p
  %w = load i32, ptr @g
  %s = add i32 %v, %w
  store i32 %s, ptr @g
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(i64 %i)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: %p = getelementptr [4 x i32], ptr @c, i64 0, i64 %i
; CHECK-NEXT: %v = load i32, ptr %p
; CHECK-NEXT: [[W:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: [[S:%.*]] = add i32 %v, [[W]]
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[S]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
