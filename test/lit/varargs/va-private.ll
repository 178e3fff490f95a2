; A va_list that only va_start, va_arg's code and va_end touch is private:
; va_start stays as it is and va_arg's loads and stores of the list are
; plain, so they agree with what va_start stored. The argument itself is
; read through the barrier (the register save area: another object).
; RUN: %llvm_ir %s | %opt -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.__va_list_tag = type { i32, i32, ptr, ptr }

declare void @llvm.va_start.p0(ptr)
declare void @llvm.va_end.p0(ptr)

@sink = global i64 0
@use = global ptr @first

define i64 @first(i32 %n, ...) {
entry:
  %ap = alloca [1 x %struct.__va_list_tag], align 16
  call void @llvm.va_start.p0(ptr %ap)
  %gp = load i32, ptr %ap, align 16
  %next = add i32 %gp, 8
  store i32 %next, ptr %ap, align 16
  %rsa.p = getelementptr inbounds i8, ptr %ap, i64 16
  %rsa = load ptr, ptr %rsa.p, align 16
  %off = zext i32 %gp to i64
  %arg.p = getelementptr inbounds i8, ptr %rsa, i64 %off
  %v = load i64, ptr %arg.p, align 8
  call void @llvm.va_end.p0(ptr %ap)
  ret i64 %v
}

; CHECK-LABEL: define i64 @first.ptm(i32 %n, ...)
; CHECK:      %ap = alloca [1 x %struct.__va_list_tag]
; CHECK-NEXT: call void @llvm.va_start{{(\.p0)?}}(ptr %ap)
; CHECK-NEXT: %gp = load i32, ptr %ap
; CHECK:      store i32 %next, ptr %ap
; CHECK:      %rsa = load ptr, ptr %rsa.p
; CHECK:      call i64 @__ptm_read_8(ptr %arg.p)
; CHECK-NOT:  __ptm_write_n
; CHECK:      call void @llvm.va_end{{(\.p0)?}}(ptr %ap)
