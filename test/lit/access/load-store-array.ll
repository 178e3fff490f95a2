; A load and a store of [3 x i16] inside a region (array loaded whole) are copied
; through a private temporary with __ptm_read_n/__ptm_write_n of 6 bytes;
; the temporary is an alloca of the function, shared by the load and the store.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@src = global [3 x i16] zeroinitializer
@dst = global [3 x i16] zeroinitializer

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = load [3 x i16], ptr @src
  store [3 x i16] %v, ptr @dst
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      [[TMP:%.*]] = alloca [3 x i16]
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @__ptm_read_n(ptr [[TMP]], ptr @src, i64 6)
; CHECK-NEXT: [[V:%.*]] = load [3 x i16], ptr [[TMP]]
; CHECK-NEXT: store [3 x i16] [[V]], ptr [[TMP]]
; CHECK-NEXT: call void @__ptm_write_n(ptr @dst, ptr [[TMP]], i64 6)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  __ptm_read_{{[1248]}}
; CHECK-NOT:  __ptm_write_{{[1248]}}
; CHECK:      ret void
