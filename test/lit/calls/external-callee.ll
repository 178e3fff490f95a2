; A call of a function only declared in this unit: a weak reference to its
; clone "ext.ptm" (bound statically when the defining unit was compiled with
; the plugin), a null check, and a fallback to __ptm_clone_lookup(ext, where);
; the call goes through the phi of the two. The site given to the lookup names
; the callee.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare i32 @ext(i32) #0
attributes #0 = { memory(read) willreturn }

define i32 @f(i32 %x) {
entry:
  call void @__ptm_region_begin()
  %r = call i32 @ext(i32 %x) #0
  call void @__ptm_region_end()
  ret i32 %r
}

; CHECK-DAG:  [[WHERE:@.ptm.str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"function 'f'\00"
; CHECK-DAG:  [[CALLING:@.ptm.str[.0-9]*]] = private unnamed_addr constant [28 x i8] c"function 'f', calling 'ext'\00"
; CHECK-LABEL: define i32 @f(i32 %x)
; CHECK:      call void @__ptm_tx_begin(ptr [[WHERE]])
; CHECK-NEXT: [[MISSING:%.*]] = icmp eq ptr @ext.ptm, null
; CHECK-NEXT: br i1 [[MISSING]], label %[[LOOKUP:.*]], label %[[CALL:.*]]
; CHECK:      [[LOOKUP]]:
; CHECK-NEXT: [[FOUND:%.*]] = call ptr @__ptm_clone_lookup(ptr @ext, ptr [[CALLING]])
; CHECK-NEXT: br label %[[CALL]]
; CHECK:      [[CALL]]:
; CHECK-NEXT: [[T:%.*]] = phi ptr [ @ext.ptm, %ptm.restart ], [ [[FOUND]], %[[LOOKUP]] ]
; CHECK-NEXT: %r = call i32 [[T]](i32 %x){{$}}
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK:      declare extern_weak i32 @ext.ptm(i32)
