; An invoke of operator new inside a region stays an invoke (new may throw
; std::bad_alloc), of __ptm_tx_new, with the same destinations.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare ptr @_Znwm(i64)
declare i32 @__gxx_personality_v0(...)

@out = global ptr null

define void @f() personality ptr @__gxx_personality_v0 {
entry:
  call void @__ptm_region_begin()
  %p = invoke ptr @_Znwm(i64 32)
          to label %ok unwind label %lpad
ok:
  store ptr %p, ptr @out
  call void @__ptm_region_end()
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: %p = invoke ptr @__ptm_tx_new(i64 32)
; CHECK-NEXT:   to label %ok unwind label %lpad
; CHECK:      ok:
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr %p to i64
; CHECK-NEXT: call void @__ptm_write_8(ptr @out, i64 [[I]])
; CHECK-NOT:  @_Znwm(
; CHECK:      ret void
