; A local (non-escaping alloca) that exists before the region and is written
; inside it gets an entry copy: it is copied there before the checkpoint and
; back at the start of every attempt (ptm.restart, which the retry edge and a
; longjmp to the checkpoint both reach), before __ptm_tx_begin. A scalar is
; copied with a load and a store, an array or an alloca with a count with a
; memcpy of its allocation size. Its accesses stay plain (private stack).
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
; CHECK:      %x = alloca i32, align 4
; CHECK-NEXT: %x.ptm.entry = alloca i32, align 4, !ptm.temporary
; CHECK-NEXT: %arr = alloca [10 x i64], align 8
; CHECK-NEXT: %arr.ptm.entry = alloca [10 x i64], align 8, !ptm.temporary
; CHECK-NEXT: %n = alloca i16, i32 4, align 2
; CHECK-NEXT: %n.ptm.entry = alloca i16, i32 4, align 2, !ptm.temporary
; CHECK-NEXT: store i32 0, ptr %x
; CHECK-NEXT: [[X0:%.*]] = load i32, ptr %x, align 4
; CHECK-NEXT: store i32 [[X0]], ptr %x.ptm.entry, align 4
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %arr.ptm.entry, ptr align 8 %arr, i64 80, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 2 %n.ptm.entry, ptr align 2 %n, i64 8, i1 false)
; CHECK-NEXT: [[BUF:%.*]] = call ptr @__ptm_tx_checkpoint()
; CHECK-NEXT: call i32 @__ptm_setjmp(ptr [[BUF]])
; CHECK-NEXT: br label %ptm.restart
; CHECK:      ptm.restart:
; CHECK-NEXT: [[X1:%.*]] = load i32, ptr %x.ptm.entry, align 4
; CHECK-NEXT: store i32 [[X1]], ptr %x, align 4
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 %arr, ptr align 8 %arr.ptm.entry, i64 80, i1 false)
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 2 %n, ptr align 2 %n.ptm.entry, i64 8, i1 false)
; CHECK-NEXT: call void @__ptm_tx_begin(
; CHECK-NEXT: %v = load i32, ptr %x
; CHECK-NEXT: %w = add i32 %v, 1
; CHECK-NEXT: store i32 %w, ptr %x
; CHECK-NEXT: %e = getelementptr
; CHECK-NEXT: store i64 5, ptr %e
; CHECK-NEXT: %e2 = getelementptr
; CHECK-NEXT: store i16 1, ptr %e2
; CHECK-NEXT: %ptm.retry = call i32 @__ptm_tx_commit()
; CHECK-NEXT: [[AGAIN:%.*]] = icmp ne i32 %ptm.retry, 0
; CHECK-NEXT: br i1 [[AGAIN]], label %ptm.restart, label %ptm.committed
; CHECK-NOT:  call {{.*}}@__ptm_
; CHECK:      ret void
