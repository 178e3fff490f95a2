; Loads and stores of a private stack slot whose address never escapes are not
; instrumented, even through a GEP and a phi/select of two private slots.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define i32 @f(i1 %c) {
entry:
  %a = alloca [4 x i32]
  %b = alloca [4 x i32]
  call void @__ptm_region_begin()
  %p = select i1 %c, ptr %a, ptr %b
  %q = getelementptr [4 x i32], ptr %p, i64 0, i64 2
  store i32 1, ptr %q
  %v = load i32, ptr %q
  call void @__ptm_region_end()
  ret i32 %v
}

; CHECK-LABEL: define i32 @f(i1 %c)
; CHECK:      ptm.restart:
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %a, ptr align 4 %a.ptm.entry, i64 16, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 %b, ptr align 4 %b.ptm.entry, i64 16, i1 false)
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: %p = select i1 %c, ptr %a, ptr %b
; CHECK-NEXT: %q = getelementptr
; CHECK-NEXT: store i32 1, ptr %q
; CHECK-NEXT: %v = load i32, ptr %q
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  __ptm_read_
; CHECK-NOT:  __ptm_write_
; CHECK:      ret i32 %v
