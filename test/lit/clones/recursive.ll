; A recursive function called in a region: its clone calls itself (the
; clone), not the original.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define internal void @rec(i32 %n) {
entry:
  store i32 %n, ptr @g
  %z = icmp eq i32 %n, 0
  br i1 %z, label %done, label %more
more:
  %m = sub i32 %n, 1
  call void @rec(i32 %m)
  br label %done
done:
  ret void
}

define void @f() {
entry:
  call void @__ptm_region_begin()
  call void @rec(i32 5)
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define internal void @rec(i32 %n)
; CHECK:      call void @rec(i32 %m)
; CHECK-LABEL: define void @f()
; CHECK:      call void @rec.ptm(i32 5)
; CHECK-LABEL: define internal void @rec.ptm(i32 %n)
; CHECK-NEXT: entry:
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %n)
; CHECK:      call void @rec.ptm(i32 %m)
; CHECK-NOT:  call void @rec(
; CHECK:      ret void
