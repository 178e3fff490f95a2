; A clone copies its by-value arguments into its own frame at entry with a
; plain memcpy (they live in the caller's argument area, which the caller
; stores with code no barrier sees) and works on the copy: here the copy
; escapes, so its accesses go through the barriers, on the clone's frame.
; The original function is left as it is.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.block = type { [8 x i64] }

declare void @store_at(ptr, i64)

@use = global ptr @sum_block

define i64 @sum_block(ptr byval(%struct.block) align 8 %b) {
entry:
  %p = getelementptr inbounds i8, ptr %b, i64 56
  call void @store_at(ptr %p, i64 1)
  %v = load i64, ptr %b, align 8
  ret i64 %v
}

; CHECK-LABEL: define i64 @sum_block(ptr byval(%struct.block) align 8 %b)
; CHECK-NEXT: entry:
; CHECK-NEXT: %p = getelementptr inbounds i8, ptr %b, i64 56

; CHECK-LABEL: define i64 @sum_block.ptm(ptr byval(%struct.block) align 8 %b)
; CHECK-NEXT: entry:
; CHECK-NEXT: [[COPY:%b.ptm]] = alloca %struct.block, align 8
; CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 8 [[COPY]], ptr align 8 %b, i64 64, i1 false)
; CHECK-NEXT: %p = getelementptr inbounds i8, ptr [[COPY]], i64 56
; CHECK:      call i64 @__ptm_read_8(ptr [[COPY]])
