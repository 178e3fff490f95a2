; A va_list whose address escapes (handed to a v-function) is not private:
; va_start fills a copy of the pass's own, which goes into the list through
; the write barrier, so that the list's log entries (a redo library's) and
; its memory never disagree.
; RUN: %llvm_ir %s | %opt -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.__va_list_tag = type { i32, i32, ptr, ptr }

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)
declare i64 @vsum(i32, ptr)

@use = global ptr @sum

define i64 @sum(i32 %n, ...) {
entry:
  %ap = alloca [1 x %struct.__va_list_tag], align 16
  call void @llvm.va_start.p0(ptr %ap)
  %s = call i64 @vsum(i32 %n, ptr %ap)
  call void @llvm.va_end.p0(ptr %ap)
  ret i64 %s
}

; CHECK-LABEL: define i64 @sum.ptm(i32 %n, ...)
; CHECK:      [[COPY:%ptm.va_list]] = alloca [24 x i8], align 16
; CHECK:      call void @llvm.va_start{{(\.p0)?}}(ptr [[COPY]])
; CHECK-NEXT: call void @__ptm_write_n(ptr %ap, ptr [[COPY]], i64 24)
; CHECK:      call i64 {{.*}}(i32 %n, ptr %ap)
; CHECK:      call void @llvm.va_end{{(\.p0)?}}(ptr %ap)
