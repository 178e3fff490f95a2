; atomicrmw or inside a region becomes a read barrier, the operation on the
; old value, and a write barrier (the transaction makes the whole atomic); the
; old value replaces the result of the atomicrmw.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0
@out = global i32 0

define void @f(i32 %x) {
entry:
  call void @__ptm_region_begin()
  %old = atomicrmw or ptr @g, i32 %x seq_cst
  store i32 %old, ptr @out
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(i32 %x)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[OLD:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: [[NEW:%.*]] = or i32 [[OLD]], %x
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[NEW]])
; CHECK-NEXT: call void @__ptm_write_4(ptr @out, i32 [[OLD]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  atomicrmw
; CHECK:      ret void
