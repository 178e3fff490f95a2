; A local (non-escaping alloca) that exists before the region and is written
; inside it is saved with __ptm_tx_save_local(ptr, size) right after
; __ptm_tx_begin, so that an abort restores it; its accesses themselves stay
; plain (private stack). Several locals are saved in allocation order with
; their allocation sizes (an array, an alloca with a count).
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare void @use(i32, i64)

define void @f() {
entry:
  %x = alloca i32
  %arr = alloca [10 x i64]
  %n = alloca i16, i32 4
  store i32 0, ptr %x
  call void @__ptm_region_begin()
  %v = load i32, ptr %x
  %w = add i32 %v, 1
  store i32 %w, ptr %x
  %e = getelementptr [10 x i64], ptr %arr, i64 0, i64 3
  store i64 5, ptr %e
  %e2 = getelementptr i16, ptr %n, i64 2
  store i16 1, ptr %e2
  call void @__ptm_region_end()
  %r = load i32, ptr %x
  %r2 = load i64, ptr %e
  call void @use(i32 %r, i64 %r2)
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_tx_save_local(ptr %x, i64 4)
; CHECK-NEXT: call void @__ptm_tx_save_local(ptr %arr, i64 80)
; CHECK-NEXT: call void @__ptm_tx_save_local(ptr %n, i64 8)
; CHECK-NEXT: %v = load i32, ptr %x
; CHECK-NEXT: %w = add i32 %v, 1
; CHECK-NEXT: store i32 %w, ptr %x
; CHECK-NEXT: %e = getelementptr
; CHECK-NEXT: store i64 5, ptr %e
; CHECK-NEXT: %e2 = getelementptr
; CHECK-NEXT: store i16 1, ptr %e2
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  __ptm_read
; CHECK-NOT:  __ptm_write
; CHECK:      ret void
