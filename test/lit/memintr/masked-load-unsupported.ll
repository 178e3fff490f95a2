; A memory intrinsic the pass cannot map (llvm.masked.load) inside a region is
; reported: a warning, and __ptm_unsupported(4, name, where) right before it;
; the intrinsic itself stays.
; RUN: %opt -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare <4 x i32> @llvm.masked.load.v4i32.p0(ptr, i32, <4 x i1>, <4 x i32>)

@out = global <4 x i32> zeroinitializer

define void @f(ptr %p, <4 x i1> %m) {
entry:
  call void @__ptm_region_begin()
  %v = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> %m, <4 x i32> zeroinitializer)
  call void @__ptm_region_end()
  ret void
}

; WARN: warning: {{.*}}ptm: intrinsic 'llvm.masked.load.v4i32.p0' inside a transaction is not instrumented (in function 'f')

; CHECK:      [[WHAT:@.ptm.str[.0-9]*]] = private unnamed_addr constant [26 x i8] c"llvm.masked.load.v4i32.p0\00"
; CHECK:      [[WHERE:@.ptm.str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"function 'f'\00"
; CHECK-LABEL: define void @f(
; CHECK:      call void @__ptm_tx_begin(ptr [[WHERE]])
; CHECK-NEXT: call void @__ptm_unsupported(i32 4, ptr [[WHAT]], ptr [[WHERE]])
; CHECK-NEXT: %v = call <4 x i32> @llvm.masked.load.v4i32.p0(ptr %p, i32 4, <4 x i1> %m, <4 x i32> zeroinitializer)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
