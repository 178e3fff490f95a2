; The module flag "ptm.instrumented" keeps the pass from instrumenting a
; module twice (it is scheduled both by -fplugin and -fpass-plugin): running
; it twice gives each runtime call once and one clone.
; RUN: %ptm_opt -passes=ptm-instrument,ptm-instrument -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = load i32, ptr @g
  store i32 %v, ptr @g
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      call ptr @__ptm_tx_checkpoint()
; CHECK-NOT:  call ptr @__ptm_tx_checkpoint()
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[V]])
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  call ptr @__ptm_tx_checkpoint()
; CHECK:      define void @f.ptm()
; CHECK-NOT:  define {{.*}}@f.ptm.ptm
; CHECK-NOT:  define {{.*}}@f.ptm.1
; CHECK:      call void @__ptm_register_clones(ptr @__ptm_clone_table, i64 1)
; CHECK-NOT:  call void @__ptm_register_clones
; CHECK:      !{i32 {{[0-9]+}}, !"ptm.instrumented", i32 1}
