; An invoke of a same-unit function inside a region becomes an invoke of its
; clone, with the same normal and unwind destinations.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare i32 @__gxx_personality_v0(...)

@g = global i32 0

define void @may_throw() {
  store i32 1, ptr @g
  ret void
}

define void @f() personality ptr @__gxx_personality_v0 {
entry:
  call void @__ptm_region_begin()
  invoke void @may_throw()
          to label %ok unwind label %lpad
ok:
  call void @__ptm_region_end()
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: invoke void @may_throw.ptm()
; CHECK-NEXT:   to label %ok unwind label %lpad
; CHECK:      ok:
; CHECK-NEXT: call i32 @__ptm_tx_commit()
