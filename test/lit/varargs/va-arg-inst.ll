; The IR va_arg instruction (the back end reads and advances the list) on
; a list that is not private: it works on a copy read through the read
; barrier and written back through the write barrier.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@use = global ptr @next

define i32 @next(ptr %ap) {
entry:
  %v = va_arg ptr %ap, i32
  ret i32 %v
}

; CHECK-LABEL: define i32 @next.ptm(ptr %ap)
; CHECK:      [[C:%ptm.va_list]] = alloca [24 x i8], align 16
; CHECK:      call void @__ptm_read_n(ptr [[C]], ptr %ap, i64 24)
; CHECK-NEXT: %v = va_arg ptr [[C]], i32
; CHECK-NEXT: call void @__ptm_write_n(ptr %ap, ptr [[C]], i64 24)
; CHECK-NEXT: ret i32 %v
