; A return inside a region (control leaves without PTM_END()) is diagnosed
; with a warning; the path that reaches PTM_END() still commits, and the
; access on the returning path is instrumented.
; RUN: %opt -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f(i1 %c) {
entry:
  call void @__ptm_region_begin()
  br i1 %c, label %early, label %done
early:
  store i32 1, ptr @g
  ret void
done:
  call void @__ptm_region_end()
  ret void
}

; WARN: warning: {{.*}}ptm: control leaves a transaction without PTM_END() (return, break or goto out of a PTM_BEGIN() region); the transaction stays open (in function 'f')
; WARN-NOT: warning

; CHECK-LABEL: define void @f(i1 %c)
; CHECK:      early:
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK-NEXT: ret void
; CHECK:      done:
; CHECK-NEXT: call i32 @__ptm_tx_commit()
