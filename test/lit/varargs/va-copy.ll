; va_copy between lists that are not private: the source is read through
; the read barrier into a copy, va_copy works on copies, and the result
; goes into the destination through the write barrier. A private
; destination receives va_copy directly from the source's copy.
; RUN: %llvm_ir %s | %opt -S | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.__va_list_tag = type { i32, i32, ptr, ptr }

declare void @llvm.va_copy.p0(ptr, ptr)
declare void @llvm.va_end.p0(ptr)
declare void @take(ptr)

@use = global ptr @copy_shared

define void @copy_shared(ptr %src, ptr %dst) {
entry:
  call void @llvm.va_copy.p0(ptr %dst, ptr %src)
  ret void
}

; CHECK-LABEL: define void @copy_shared.ptm(ptr %src, ptr %dst)
; CHECK-COUNT-2: alloca [24 x i8], align 16
; CHECK:      call void @__ptm_read_n(ptr [[S:%ptm.va_list[0-9]*]], ptr %src, i64 24)
; CHECK-NEXT: call void @llvm.va_copy{{(\.p0)?}}(ptr [[D:%ptm.va_list[0-9]*]], ptr [[S]])
; CHECK-NEXT: call void @__ptm_write_n(ptr %dst, ptr [[D]], i64 24)

@use2 = global ptr @copy_to_private

define void @copy_to_private(ptr %src) {
entry:
  %aq = alloca [1 x %struct.__va_list_tag], align 16
  call void @llvm.va_copy.p0(ptr %aq, ptr %src)
  call void @llvm.va_end.p0(ptr %aq)
  ret void
}

; CHECK-LABEL: define void @copy_to_private.ptm(ptr %src)
; CHECK:      call void @__ptm_read_n(ptr [[S2:%ptm.va_list[0-9]*]], ptr %src, i64 24)
; CHECK-NEXT: call void @llvm.va_copy{{(\.p0)?}}(ptr %aq, ptr [[S2]])
; CHECK-NOT:  __ptm_write_n
; CHECK:      ret void
