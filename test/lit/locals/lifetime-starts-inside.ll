; A local whose lifetime starts inside the region is private to the attempt:
; it gets no entry copy, and its accesses (and the lifetime markers) stay as they
; are.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

@g = global i32 0

define void @f() {
entry:
  %t = alloca i32
  call void @__ptm_region_begin()
  call void @llvm.lifetime.start.p0(i64 4, ptr %t)
  store i32 3, ptr %t
  %v = load i32, ptr %t
  store i32 %v, ptr @g
  call void @llvm.lifetime.end.p0(i64 4, ptr %t)
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK-NOT:  ptm.entry
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 4, ptr %t)
; CHECK-NEXT: store i32 3, ptr %t
; CHECK-NEXT: %v = load i32, ptr %t
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %v)
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 4, ptr %t)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  ptm.entry
; CHECK:      ret void
