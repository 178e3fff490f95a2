; A function compiled at -O0 (noinline optnone) is instrumented: the pass is
; required and ignores optnone.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f() #0 {
entry:
  call void @__ptm_region_begin()
  %v = load i32, ptr @g
  %w = add i32 %v, 1
  store i32 %w, ptr @g
  call void @__ptm_region_end()
  ret void
}

attributes #0 = { noinline nounwind optnone }

; CHECK-LABEL: define void @f()
; CHECK:      call ptr @__ptm_tx_checkpoint()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: [[W:%.*]] = add i32 [[V]], 1
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[W]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
