; Linkage of clones: the clone of an internal function stays internal, of a
; linkonce_odr function is linkonce_odr in its own comdat, of an external
; function is external (so other units can bind to it), with the same
; visibility.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

$lo = comdat any

@g = global i32 0

define internal void @in() {
  store i32 1, ptr @g
  ret void
}
define linkonce_odr void @lo() comdat {
  store i32 2, ptr @g
  ret void
}
define hidden void @ex() {
  store i32 3, ptr @g
  ret void
}

define void @f() {
entry:
  call void @__ptm_region_begin()
  call void @in()
  call void @lo()
  call void @ex()
  call void @__ptm_region_end()
  ret void
}

; CHECK-DAG:  $lo.ptm = comdat any
; CHECK-DAG:  define internal void @in.ptm()
; CHECK-DAG:  define linkonce_odr void @lo.ptm() comdat {
; CHECK-DAG:  define hidden void @ex.ptm()
