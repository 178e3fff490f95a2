; A dynamic alloca (a VLA) may hold data from before the region that an entry
; copy of fixed size cannot restore: its accesses inside the region go through
; barriers, so the library's log restores it, and it gets no entry copy.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define i32 @f(i64 %n) {
entry:
  %vla = alloca i32, i64 %n
  store i32 7, ptr %vla
  call void @__ptm_region_begin()
  %v = load i32, ptr %vla
  %w = add i32 %v, 1
  store i32 %w, ptr %vla
  call void @__ptm_region_end()
  %r = load i32, ptr %vla
  ret i32 %r
}

; CHECK-LABEL: define i32 @f(i64 %n)
; CHECK-NOT:  ptm.entry
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr %vla)
; CHECK-NEXT: [[W:%.*]] = add i32 [[V]], 1
; CHECK-NEXT: call void @__ptm_write_4(ptr %vla, i32 [[W]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  ptm.entry
; CHECK:      ret i32
