; _ZdlPvm inside a region becomes __ptm_tx_delete(ptr) (the free takes effect at
; commit); size and alignment arguments are dropped. Outside the region the
; original call stays.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

declare void @_ZdlPvm(ptr, i64)

define void @f(ptr %p) {
entry:
  call void @__ptm_region_begin()
  call void @_ZdlPvm(ptr %p, i64 16)
  call void @__ptm_region_end()
  call void @_ZdlPvm(ptr %p, i64 16)
  ret void
}

; CHECK-LABEL: define void @f(ptr %p)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_tx_delete(ptr %p)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK:      ptm.committed:
; CHECK-NEXT: call void @_ZdlPvm(ptr %p, i64 16)
; CHECK-NEXT: ret void
