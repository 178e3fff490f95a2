; PTM_BEGIN() on only one path to a join (unbalanced markers): the pass warns
; that the markers are not balanced, and treats the code reachable from the
; begin as transactional (the join block is instrumented).
; RUN: %opt -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f(i1 %c) {
entry:
  br i1 %c, label %a, label %j
a:
  call void @__ptm_region_begin()
  br label %j
j:
  store i32 1, ptr @g
  call void @__ptm_region_end()
  ret void
}

; WARN: warning: {{.*}}ptm: PTM_BEGIN()/PTM_END() are not balanced on every path in function 'f'

; CHECK-LABEL: define void @f(i1 %c)
; CHECK:      call void @__ptm_tx_begin(
; CHECK:      j:
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
