; A call of libc strdup inside a region becomes a call of __ptm_strdup with the
; same arguments, its result used in place of the original's; strdup itself is
; still called outside the region.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@s = global [16 x i8] zeroinitializer
@t = global [16 x i8] zeroinitializer
@r = global ptr null

declare ptr @strdup(ptr)

define void @f() {
entry:
  call void @__ptm_region_begin()
  %r = call ptr @strdup(ptr @s)
  store ptr %r, ptr @r
  call void @__ptm_region_end()
  %o = call ptr @strdup(ptr @s)
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[R:%.*]] = call ptr @__ptm_strdup(ptr @s)
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr [[R]] to i64
; CHECK-NEXT: call void @__ptm_write_8(ptr @r, i64 [[I]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK:      ptm.committed:
; CHECK-NEXT: call ptr @strdup(ptr @s)
; CHECK:      declare ptr @__ptm_strdup(ptr)
