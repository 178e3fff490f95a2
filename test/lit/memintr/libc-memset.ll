; A call of libc memset inside a region becomes __ptm_memset (void), and the
; uses of memset's result are replaced by its destination argument.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare ptr @memset(ptr, i32, i64)

@out = global ptr null

define void @f(ptr %d, i32 %c, i64 %n) {
entry:
  call void @__ptm_region_begin()
  %r = call ptr @memset(ptr %d, i32 %c, i64 %n)
  store ptr %r, ptr @out
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_memset(ptr %d, i32 %c, i64 %n)
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr %d to i64
; CHECK-NEXT: call void @__ptm_write_8(ptr @out, i64 [[I]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  @memset(
; CHECK:      ret void
