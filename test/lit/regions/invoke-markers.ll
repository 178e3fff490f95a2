; Markers reached by invoke (as clang emits them in C++ with exceptions) are
; regions like call markers: checkpoint + begin, the access instrumented,
; commit, and no marker left.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare i32 @__gxx_personality_v0(...)

@g = global i32 0

define void @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @__ptm_region_begin()
          to label %body unwind label %lpad
body:
  store i32 1, ptr @g
  invoke void @__ptm_region_end()
          to label %done unwind label %lpad
done:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; CHECK-LABEL: define void @f()
; CHECK:      call ptr @__ptm_tx_checkpoint()
; CHECK:      call void @__ptm_tx_begin(
; CHECK:      call void @__ptm_write_4(ptr @g, i32 1)
; CHECK:      call i32 @__ptm_tx_commit()
; CHECK-NOT:  @__ptm_region_begin()
; CHECK-NOT:  @__ptm_region_end()
