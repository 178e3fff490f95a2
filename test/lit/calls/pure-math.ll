; Pure math functions (sqrt, sin) and memory(none) functions are called as
; they are inside a region: no lookup, no clone reference, no report.
; RUN: %opt -S %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare double @sqrt(double)
declare double @sin(double)
declare i32 @hash(i32) memory(none)

define double @f(double %x, i32 %k) {
entry:
  call void @__ptm_region_begin()
  %a = call double @sqrt(double %x)
  %b = call double @sin(double %a)
  %h = call i32 @hash(i32 %k)
  call void @__ptm_region_end()
  ret double %b
}

; CHECK-NOT:  warning
; CHECK-LABEL: define double @f(double %x, i32 %k)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: %a = call double @sqrt(double %x)
; CHECK-NEXT: %b = call double @sin(double %a)
; CHECK-NEXT: %h = call i32 @hash(i32 %k)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  __ptm_clone_lookup(
; CHECK-NOT:  __ptm_unsupported(
; CHECK:      ret double %b
; CHECK-NOT:  @sqrt.ptm
; CHECK-NOT:  @sin.ptm
; CHECK-NOT:  @hash.ptm
