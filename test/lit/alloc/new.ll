; _Znwm(i64 16) inside a region becomes the transactional allocator
; __ptm_tx_new(i64 16) (arguments it does not take are dropped), and its
; result is what the rest of the region uses.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@_ZSt7nothrow = external global i8
@out = global ptr null

declare ptr @_Znwm(i64)

define void @f(ptr %p) {
entry:
  call void @__ptm_region_begin()
  %m = call ptr @_Znwm(i64 16)
  store ptr %m, ptr @out
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(ptr %p)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[M:%.*]] = call ptr @__ptm_tx_new(i64 16)
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr [[M]] to i64
; CHECK-NEXT: call void @__ptm_write_8(ptr @out, i64 [[I]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  call ptr @_Znwm(
; CHECK:      ret void
; CHECK:      declare ptr @__ptm_tx_new(i64)
