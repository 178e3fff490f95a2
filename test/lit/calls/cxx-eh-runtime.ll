; The C++ exception runtime (__cxa_allocate_exception, __cxa_throw,
; __cxa_begin_catch, __cxa_end_catch) acts on thread-private state: called as
; is inside a region, with no clone lookup and no report.
; RUN: %opt -S %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare ptr @__cxa_allocate_exception(i64)
declare void @__cxa_throw(ptr, ptr, ptr)
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()

@ti = external constant ptr

define void @f(ptr %e) {
entry:
  call void @__ptm_region_begin()
  %x = call ptr @__cxa_begin_catch(ptr %e)
  call void @__cxa_end_catch()
  %a = call ptr @__cxa_allocate_exception(i64 4)
  call void @__cxa_throw(ptr %a, ptr @ti, ptr null)
  unreachable
}

; CHECK-NOT:  warning: {{.*}}__cxa
; CHECK-LABEL: define void @f(ptr %e)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: %x = call ptr @__cxa_begin_catch(ptr %e)
; CHECK-NEXT: call void @__cxa_end_catch()
; CHECK-NEXT: %a = call ptr @__ptm_tx_allocate_exception(i64 4)
; CHECK-NEXT: call void @__cxa_throw(ptr %a, ptr @ti, ptr null)
; CHECK-NEXT: unreachable
; CHECK-NOT:  @__cxa_throw.ptm
