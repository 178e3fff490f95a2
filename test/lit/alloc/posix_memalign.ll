; posix_memalign(&p, align, size) inside a region becomes
; __ptm_tx_posix_memalign with the same three arguments and result.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare i32 @posix_memalign(ptr, i64, i64)

@slot = global ptr null
@rc = global i32 0

define void @f() {
entry:
  call void @__ptm_region_begin()
  %r = call i32 @posix_memalign(ptr @slot, i64 64, i64 100)
  store i32 %r, ptr @rc
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: %r = call i32 @__ptm_tx_posix_memalign(ptr @slot, i64 64, i64 100)
; CHECK-NEXT: call void @__ptm_write_4(ptr @rc, i32 %r)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
