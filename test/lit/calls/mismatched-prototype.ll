; A call whose type differs from the callee's (K&R C, a call through a
; mismatched prototype) is treated as an indirect call: looked up at run time.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @k() {
  store i32 1, ptr @g
  ret void
}

define void @f() {
entry:
  call void @__ptm_region_begin()
  call void @k(i32 7)
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(ptr [[WHERE:@.ptm.str[.0-9]*]])
; CHECK-NEXT: [[T:%.*]] = call ptr @__ptm_clone_lookup(ptr @k, ptr [[WHERE]])
; CHECK-NEXT: call void [[T]](i32 7)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
