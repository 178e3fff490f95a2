; BarrierLoopUnswitchPass (`ptm-unswitch-barrier-loops`, the LTO link's
; end): a loop with the property ptm.barrier_loop is versioned on a
; loop-invariant test, here an inlined read barrier's "has the attempt
; logged anything" (a load hoisted out of the loop; the slow path is a pure
; call): one copy calls nothing and loads plainly. The same loop without
; the property is left alone, as LLVM's -O2 would.
;
; RUN: %ptm_opt -passes='loop-mssa(ptm-unswitch-barrier-loops)' -S %s | FileCheck %s
; The function pass of the link's end (the loop pass, then a CFG clean-up,
; in functions with a loop that has the property; the other stays as it is):
; RUN: %ptm_opt -passes=ptm-barrier-loop-functions -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@logged = external thread_local global i64

declare i64 @read_slow(ptr) readonly nounwind willreturn

; CHECK-LABEL: define i64 @tagged(
; CHECK: entry:
; CHECK: %n.logged = load i64, ptr @logged
; CHECK: %empty = icmp eq i64 %n.logged, 0
; CHECK: br i1 %empty, label %[[FAST:[^ ,]+]], label %[[SLOW:[^ ,]+]]
; The copy for an attempt that has logged nothing: a plain load.
; CHECK: [[FAST]]:
; CHECK-NOT: call
; CHECK: load i64, ptr %q.us
; CHECK-NOT: call
; CHECK: br i1
; The other copy keeps the barrier's test and its slow path.
; CHECK: call i64 @read_slow(ptr %q)
define i64 @tagged(ptr %p, i64 %n) {
entry:
  %n.logged = load i64, ptr @logged
  %empty = icmp eq i64 %n.logged, 0
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %read.done ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %read.done ]
  %q = getelementptr i64, ptr %p, i64 %i
  br i1 %empty, label %read.fast, label %read.slow

read.fast:
  %v.fast = load i64, ptr %q
  br label %read.done

read.slow:
  %v.slow = call i64 @read_slow(ptr %q)
  br label %read.done

read.done:
  %v = phi i64 [ %v.fast, %read.fast ], [ %v.slow, %read.slow ]
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  ret i64 %s.next
}

; CHECK-LABEL: define i64 @untagged(
; CHECK: entry:
; CHECK-NEXT: %n.logged = load i64, ptr @logged
; CHECK-NEXT: %empty = icmp eq i64 %n.logged, 0
; CHECK-NEXT: br label %loop
; CHECK: loop:
; CHECK: br i1 %empty, label %read.fast, label %read.slow
define i64 @untagged(ptr %p, i64 %n) {
entry:
  %n.logged = load i64, ptr @logged
  %empty = icmp eq i64 %n.logged, 0
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %read.done ]
  %s = phi i64 [ 0, %entry ], [ %s.next, %read.done ]
  %q = getelementptr i64, ptr %p, i64 %i
  br i1 %empty, label %read.fast, label %read.slow

read.fast:
  %v.fast = load i64, ptr %q
  br label %read.done

read.slow:
  %v.slow = call i64 @read_slow(ptr %q)
  br label %read.done

read.done:
  %v = phi i64 [ %v.fast, %read.fast ], [ %v.slow, %read.slow ]
  %s.next = add i64 %s, %v
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret i64 %s.next
}

!0 = distinct !{!0, !1}
!1 = !{!"ptm.barrier_loop", i32 1}
