; Atomic loads and stores inside a region are plain barrier calls of their
; size (the transaction is atomic as a whole).
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i64 0
@h = global ptr null

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = load atomic i64, ptr @g acquire, align 8
  store atomic i64 %v, ptr @g release, align 8
  %p = load atomic ptr, ptr @h seq_cst, align 8
  store atomic ptr %p, ptr @h monotonic, align 8
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[V:%.*]] = call i64 @__ptm_read_8(ptr @g)
; CHECK-NEXT: call void @__ptm_write_8(ptr @g, i64 [[V]])
; CHECK-NEXT: [[RAW:%.*]] = call i64 @__ptm_read_8(ptr @h)
; CHECK-NEXT: [[P:%.*]] = inttoptr i64 [[RAW]] to ptr
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr [[P]] to i64
; CHECK-NEXT: call void @__ptm_write_8(ptr @h, i64 [[I]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  {{load|store}} atomic
; CHECK:      ret void
