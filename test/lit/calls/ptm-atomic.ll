; ptm_atomic(fn, arg): the call itself stays (the runtime runs fn's clone as a
; transaction); fn, a static function used nowhere else, is cloned and
; registered so that the runtime finds its clone.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare void @ptm_atomic(ptr, ptr)

@g = global i32 0

define internal void @work(ptr %arg) {
  store i32 5, ptr @g
  ret void
}

define void @f(ptr %a) {
entry:
  call void @ptm_atomic(ptr @work, ptr %a)
  ret void
}

; CHECK:      @__ptm_clone_table = private constant {{.*}} { ptr @work, ptr @work.ptm }
; CHECK-LABEL: define void @f(ptr %a)
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @ptm_atomic(ptr @work, ptr %a)
; CHECK-LABEL: define internal void @work.ptm(ptr %arg)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 5)
