; llvm.memset with an i32 length: the length is zero-extended to size_t
; (i64) for __ptm_memset.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare void @llvm.memset.p0.i32(ptr, i8, i32, i1)
declare void @llvm.lifetime.start.p0(i64, ptr)

@a = global [32 x i8] zeroinitializer
@b = global [32 x i8] zeroinitializer

define void @f(ptr %d, ptr %s, i64 %n, i8 %c, i32 %n32) {
entry:
  %buf = alloca [32 x i8]
  %buf2 = alloca [32 x i8]
  call void @__ptm_region_begin()
  call void @llvm.lifetime.start.p0(i64 32, ptr %buf)
  call void @llvm.lifetime.start.p0(i64 32, ptr %buf2)
  call void @llvm.memset.p0.i32(ptr %d, i8 0, i32 %n32, i1 false)
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(
; CHECK:      call void @llvm.lifetime.start.p0(i64 32, ptr %buf2)
; CHECK-NEXT: [[N:%.*]] = zext i32 %n32 to i64
; CHECK-NEXT: call void @__ptm_memset(ptr %d, i32 0, i64 [[N]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
