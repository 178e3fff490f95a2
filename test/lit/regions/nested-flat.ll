; Nested regions in one function nest flat: only the outermost markers become
; checkpoint/begin/commit; the inner markers vanish and the accesses between
; them are instrumented like the rest of the region.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f() {
entry:
  call void @__ptm_region_begin()
  store i32 1, ptr @g
  call void @__ptm_region_begin()
  store i32 2, ptr @g
  call void @__ptm_region_end()
  store i32 3, ptr @g
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call ptr @__ptm_tx_checkpoint()
; CHECK-NOT:  call ptr @__ptm_tx_checkpoint()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 2)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 3)
; CHECK-NEXT: [[C:%.*]] = call i32 @__ptm_tx_commit()
; CHECK-NOT:  call i32 @__ptm_tx_commit()
; CHECK-NOT:  call void @__ptm_region_
; CHECK:      ret void
; CHECK-LABEL: define void @f.ptm()
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 2)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 3)
; CHECK-NEXT: ret void
