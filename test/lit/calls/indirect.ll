; An indirect call inside a region is translated at run time: the target is
; __ptm_clone_lookup(fp, where), and the call goes through it.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define void @f(ptr %fp) {
entry:
  call void @__ptm_region_begin()
  call void %fp(i32 1)
  call void @__ptm_region_end()
  ret void
}

; CHECK:      [[WHERE:@.ptm.str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"function 'f'\00"
; CHECK-LABEL: define void @f(ptr %fp)
; CHECK:      call void @__ptm_tx_begin(ptr [[WHERE]])
; CHECK-NEXT: [[T:%.*]] = call ptr @__ptm_clone_lookup(ptr %fp, ptr [[WHERE]])
; CHECK-NEXT: call void [[T]](i32 1)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
