; Callees of callees are cloned too: the region calls a.ptm, whose body calls
; b.ptm, whose body calls c.ptm; every clone is instrumented. Only @f, the
; external function, is registered: the internal ones are reached directly.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define internal void @c() {
  store i32 3, ptr @g
  ret void
}
define internal void @b() {
  call void @c()
  ret void
}
define internal void @a() {
  call void @b()
  ret void
}

define void @f() {
entry:
  call void @__ptm_region_begin()
  call void @a()
  call void @__ptm_region_end()
  ret void
}

; CHECK:      @__ptm_clone_table = private constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @f, ptr @f.ptm }]
; CHECK-LABEL: define void @f()
; CHECK:      call void @a.ptm()
; CHECK-LABEL: define internal void @{{[abc]}}.ptm()
; CHECK-DAG:  call void @b.ptm()
; CHECK-DAG:  call void @c.ptm()
; CHECK-DAG:  call void @__ptm_write_4(ptr @g, i32 3)
