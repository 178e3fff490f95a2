; An atomicrmw on a private stack slot inside a region is left as it is.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare void @llvm.lifetime.start.p0(i64, ptr)

define i32 @f() {
entry:
  %t = alloca i32
  call void @__ptm_region_begin()
  call void @llvm.lifetime.start.p0(i64 4, ptr %t)
  store i32 0, ptr %t
  %old = atomicrmw add ptr %t, i32 1 seq_cst
  call void @__ptm_region_end()
  ret i32 %old
}

; CHECK-LABEL: define i32 @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 4, ptr %t)
; CHECK-NEXT: store i32 0, ptr %t
; CHECK-NEXT: %old = atomicrmw add ptr %t, i32 1 seq_cst
; CHECK-NEXT: call i32 @__ptm_tx_commit()
