; cmpxchg inside a region: read barrier, compare, select of the new or old
; value, write barrier, and the { old, success } result rebuilt for its users.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i64 0
@ok = global i8 0

define void @f(i64 %e, i64 %n) {
entry:
  call void @__ptm_region_begin()
  %r = cmpxchg ptr @g, i64 %e, i64 %n seq_cst seq_cst
  %s = extractvalue { i64, i1 } %r, 1
  %z = zext i1 %s to i8
  store i8 %z, ptr @ok
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f(i64 %e, i64 %n)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[OLD:%.*]] = call i64 @__ptm_read_8(ptr @g)
; CHECK-NEXT: [[EQ:%.*]] = icmp eq i64 [[OLD]], %e
; CHECK-NEXT: [[NEW:%.*]] = select i1 [[EQ]], i64 %n, i64 [[OLD]]
; CHECK-NEXT: call void @__ptm_write_8(ptr @g, i64 [[NEW]])
; CHECK-NEXT: [[R0:%.*]] = insertvalue { i64, i1 } poison, i64 [[OLD]], 0
; CHECK-NEXT: [[R1:%.*]] = insertvalue { i64, i1 } [[R0]], i1 [[EQ]], 1
; CHECK-NEXT: %s = extractvalue { i64, i1 } [[R1]], 1
; CHECK-NEXT: %z = zext i1 %s to i8
; CHECK-NEXT: call void @__ptm_write_1(ptr @ok, i8 %z)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  cmpxchg
; CHECK:      ret void
