; An empty asm statement (a compiler barrier) inside a region is left alone:
; no warning, no __ptm_unsupported.
; RUN: %opt -S %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define void @f() {
entry:
  call void @__ptm_region_begin()
  call void asm sideeffect "", "~{memory}"()
  call void @__ptm_region_end()
  ret void
}

; CHECK-NOT:  warning
; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void asm sideeffect "", "~{memory}"()
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  call void @__ptm_unsupported(
; CHECK:      ret void
