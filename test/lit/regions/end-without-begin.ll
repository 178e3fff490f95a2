; PTM_END() with no PTM_BEGIN() before it is diagnosed; nothing around it is
; instrumented and no transaction is started or committed. (The stray marker
; call is left as it is.)
; RUN: %opt -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f() {
entry:
  store i32 1, ptr @g
  call void @__ptm_region_end()
  ret void
}

; WARN: warning: {{.*}}ptm: PTM_END() without a matching PTM_BEGIN() (in function 'f')

; CHECK-LABEL: define void @f()
; CHECK-NEXT: entry:
; CHECK-NEXT: store i32 1, ptr @g
; CHECK-NEXT: call void @__ptm_region_end()
; CHECK-NEXT: ret void
; CHECK-NOT:  call {{.*}}@__ptm_tx_
