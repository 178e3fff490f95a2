; A local whose address escapes (passed to another function) may be shared:
; its accesses inside the region are instrumented like any memory (the
; runtime's log restores it), so it gets no entry copy.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare void @publish(ptr)

define void @f() {
entry:
  %x = alloca i32
  call void @publish(ptr %x)
  call void @__ptm_region_begin()
  %v = load i32, ptr %x
  %w = add i32 %v, 1
  store i32 %w, ptr %x
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK-NOT:  ptm.entry
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr %x)
; CHECK-NEXT: [[W:%.*]] = add i32 [[V]], 1
; CHECK-NEXT: call void @__ptm_write_4(ptr %x, i32 [[W]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  ptm.entry
; CHECK:      ret void
