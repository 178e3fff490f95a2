; A load and a store of i128 inside a region (no 16-byte barrier) are copied
; through a private temporary with __ptm_read_n/__ptm_write_n of 16 bytes;
; the temporary is an alloca of the function, shared by the load and the store.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@src = global i128 0
@dst = global i128 0

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = load i128, ptr @src
  store i128 %v, ptr @dst
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      [[TMP:%.*]] = alloca i128
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_read_n(ptr [[TMP]], ptr @src, i64 16)
; CHECK-NEXT: [[V:%.*]] = load i128, ptr [[TMP]]
; CHECK-NEXT: store i128 [[V]], ptr [[TMP]]
; CHECK-NEXT: call void @__ptm_write_n(ptr @dst, ptr [[TMP]], i64 16)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  __ptm_read_{{[1248]}}
; CHECK-NOT:  __ptm_write_{{[1248]}}
; CHECK:      ret void
