; Volatile loads and stores inside a region go through the barriers too (the
; transaction decides what memory sees); no plain volatile access remains.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = load volatile i32, ptr @g
  store volatile i32 %v, ptr @g
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[V]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  volatile
; CHECK:      ret void
