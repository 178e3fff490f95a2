; BarrierLoopTagPass (`ptm-tag-barrier-loops`, the LTO link's start): every
; loop holding a barrier call that the link will inline gets the loop
; property ptm.barrier_loop, and so does each loop around it. A loop without
; barrier calls, and one whose only call the budget left out of line
; (noinline), stays as it is; so does everything when the option is off.
;
; RUN: %ptm_opt -passes=ptm-tag-barrier-loops -S %s | FileCheck %s
; RUN: %ptm_opt -passes=ptm-tag-barrier-loops -ptm-unswitch-barrier-loops=false -S %s | FileCheck %s --check-prefix=OFF
; RUN: env PTM_UNSWITCH_BARRIER_LOOPS=0 %ptm_opt -passes=ptm-tag-barrier-loops -S %s | FileCheck %s --check-prefix=OFF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @__ptm_read_8(ptr %a) alwaysinline {
  %v = load i64, ptr %a
  ret i64 %v
}

; CHECK-LABEL: define i64 @nested(
; CHECK: br i1 %inner.done, label %outer.latch, label %inner, !llvm.loop [[INNER:![0-9]+]]
; CHECK: br i1 %outer.done, label %exit, label %outer, !llvm.loop [[OUTER:![0-9]+]]
define i64 @nested(ptr %p, i64 %n) {
entry:
  br label %outer

outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %s = phi i64 [ 0, %entry ], [ %s.inner, %outer.latch ]
  br label %inner

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %t = phi i64 [ %s, %outer ], [ %t.next, %inner ]
  %q = getelementptr i64, ptr %p, i64 %j
  %v = call i64 @__ptm_read_8(ptr %q)
  %t.next = add i64 %t, %v
  %j.next = add i64 %j, 1
  %inner.done = icmp eq i64 %j.next, %n
  br i1 %inner.done, label %outer.latch, label %inner

outer.latch:
  %s.inner = phi i64 [ %t.next, %inner ]
  %i.next = add i64 %i, 1
  %outer.done = icmp eq i64 %i.next, %n
  br i1 %outer.done, label %exit, label %outer

exit:
  ret i64 %s.inner
}

; CHECK-LABEL: define i64 @plain_loop(
; CHECK: br i1 %done, label %exit, label %loop{{$}}
define i64 @plain_loop(ptr %p, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %q = getelementptr i64, ptr %p, i64 %i
  %v = load i64, ptr %q
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret i64 %s.next
}

; CHECK-LABEL: define i64 @out_of_line(
; CHECK: br i1 %done, label %exit, label %loop{{$}}
define i64 @out_of_line(ptr %p, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %loop ]
  %q = getelementptr i64, ptr %p, i64 %i
  %v = call i64 @__ptm_read_8(ptr %q) noinline
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret i64 %s.next
}

; CHECK-DAG: [[INNER]] = distinct !{[[INNER]], [[PROP:![0-9]+]]}
; CHECK-DAG: [[OUTER]] = distinct !{[[OUTER]], [[PROP]]}
; CHECK-DAG: [[PROP]] = !{!"ptm.barrier_loop", i32 1}

; OFF-NOT: !llvm.loop
; OFF-NOT: ptm.barrier_loop
