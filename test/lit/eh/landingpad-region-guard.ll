; C++ region with its guard: an exception inside the region lands in a
; cleanup pad that is still inside the transaction (instrumented) until the
; guard's __ptm_region_unwind; the code after the guard on the exception path
; is outside the transaction and NOT instrumented. The invoke of a same-unit
; function becomes an invoke of its clone; the guard on the normal path
; (after PTM_END()) changes nothing.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare i32 @__ptm_region_depth()
declare void @__ptm_region_unwind(i32)
declare i32 @__gxx_personality_v0(...)

@g = global i32 0

define void @may_throw() {
  store i32 7, ptr @g
  ret void
}

define void @f() personality ptr @__gxx_personality_v0 {
entry:
  %d = call i32 @__ptm_region_depth()
  call void @__ptm_region_begin()
  store i32 1, ptr @g
  invoke void @may_throw()
          to label %cont unwind label %lpad
cont:
  call void @__ptm_region_end()
  call void @__ptm_region_unwind(i32 %d)
  store i32 4, ptr @g
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  store i32 2, ptr @g
  call void @__ptm_region_unwind(i32 %d)
  store i32 3, ptr @g
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define void @f()
; CHECK:      %d = call i32 @__ptm_region_depth()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK-NEXT: invoke void @may_throw.ptm()
; CHECK-NEXT:   to label %[[CONT:.*]] unwind label %lpad
; CHECK:      [[CONT]]:
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK:      call void @__ptm_region_unwind(i32 %d)
; CHECK-NEXT: store i32 4, ptr @g
; CHECK:      lpad:
; CHECK-NEXT: %lp = landingpad
; CHECK-NEXT:   cleanup
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 2)
; CHECK-NEXT: call void @__ptm_region_unwind(i32 %d)
; CHECK-NEXT: store i32 3, ptr @g
; CHECK-NEXT: resume
