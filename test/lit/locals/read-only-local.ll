; A local only read inside the region needs no entry copy and its load stays
; plain (private stack slot).
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f(i32 %a) {
entry:
  %x = alloca i32
  store i32 %a, ptr %x
  call void @__ptm_region_begin()
  %v = load i32, ptr %x
  store i32 %v, ptr @g
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(i32 %a)
; CHECK-NOT:  ptm.entry
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: %v = load i32, ptr %x
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %v)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  ptm.entry
; CHECK:      ret void
