; A call of libc strstr inside a region becomes a call of __ptm_strstr with the
; same arguments, its result used in place of the original's; strstr itself is
; still called outside the region.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@s = global [16 x i8] zeroinitializer
@t = global [16 x i8] zeroinitializer
@r = global ptr null

declare ptr @strstr(ptr, ptr)

define void @f() {
entry:
  call void @__ptm_region_begin()
  %r = call ptr @strstr(ptr @s, ptr @t)
  store ptr %r, ptr @r
  call void @__ptm_region_end()
  %o = call ptr @strstr(ptr @s, ptr @t)
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[R:%.*]] = call ptr @__ptm_strstr(ptr @s, ptr @t)
; CHECK-NEXT: [[I:%.*]] = ptrtoint ptr [[R]] to i64
; CHECK-NEXT: call void @__ptm_write_8(ptr @r, i64 [[I]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK:      ptm.committed:
; CHECK-NEXT: call ptr @strstr(ptr @s, ptr @t)
; CHECK:      declare ptr @__ptm_strstr(ptr, ptr)
