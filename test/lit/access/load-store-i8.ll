; A load and a store of i8 (1 bytes) inside a region go through the
; 1-byte barriers __ptm_read_1/__ptm_write_1, the value carried as i8;
; no plain access to the globals and no copy through __ptm_read_n remains.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@src = global i8 0
@dst = global i8 0

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = load i8, ptr @src
  store i8 %v, ptr @dst
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK-NOT:  alloca
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[V:%.*]] = call i8 @__ptm_read_1(ptr @src)
; CHECK-NEXT: call void @__ptm_write_1(ptr @dst, i8 [[V]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  __ptm_read_n
; CHECK-NOT:  __ptm_write_n
; CHECK:      ret void
; CHECK-NOT:  {{load|store}} {{.*}}ptr @{{src|dst}}
; CHECK-LABEL: define void @f.ptm()
