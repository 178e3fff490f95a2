; atomicrmw fadd on a float: 4-byte read barrier, bitcast to float, fadd,
; bitcast back, 4-byte write barrier.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global float 0.0

define float @f(float %x) {
entry:
  call void @__ptm_region_begin()
  %old = atomicrmw fadd ptr @g, float %x seq_cst
  call void @__ptm_region_end()
  ret float %old
}

; CHECK-LABEL: define float @f(float %x)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[RAW:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: [[OLD:%.*]] = bitcast i32 [[RAW]] to float
; CHECK-NEXT: [[NEW:%.*]] = fadd float [[OLD]], %x
; CHECK-NEXT: [[I:%.*]] = bitcast float [[NEW]] to i32
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[I]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK:      ret float [[OLD]]
