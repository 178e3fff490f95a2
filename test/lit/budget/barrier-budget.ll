; BarrierBudgetPass (the LTO link's barrier budget): when the calls of the
; library's always_inline barriers would inline more instructions than the
; budget, the calls in the functions with the fewest barrier calls stay
; inline (the deepest loops first within a function) and the others become
; noinline call sites. __ptm_read_8 weighs 5 (its 2 instructions and the 3 of
; the always_inline helper it calls), __ptm_write_8 2; the program's four
; calls weigh 17.
;
; RUN: %ptm_opt -passes=ptm-barrier-budget -ptm-barrier-budget=0 -S %s | FileCheck %s --check-prefix=ALL --implicit-check-not=noinline
; RUN: %ptm_opt -passes=ptm-barrier-budget -ptm-barrier-budget=17 -S %s | FileCheck %s --check-prefix=ALL --implicit-check-not=noinline
; RUN: %ptm_opt -passes=ptm-barrier-budget -ptm-barrier-budget=12 -S %s | FileCheck %s --check-prefix=TWELVE
; RUN: env PTM_BARRIER_BUDGET=7 %ptm_opt -passes=ptm-barrier-budget -ptm-barrier-budget=100 -S %s | FileCheck %s --check-prefix=SEVEN
; RUN: env PTM_BARRIER_BUDGET=1 PTM_BARRIER_BUDGET_REPORT=1 %ptm_opt -passes=ptm-barrier-budget -disable-output %s 2>&1 | FileCheck %s --check-prefix=REPORT
; RUN: env PTM_BARRIER_BUDGET=lots %ptm_opt -passes=ptm-barrier-budget -ptm-barrier-budget=12 -S %s 2>&1 | FileCheck %s --check-prefixes=BADENV,TWELVE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i64 @__ptm_read_8(ptr %a) alwaysinline {
  %v = call i64 @fast_read(ptr %a)
  ret i64 %v
}

define internal i64 @fast_read(ptr %a) alwaysinline {
  %v = load i64, ptr %a
  %w = add i64 %v, 0
  ret i64 %w
}

define void @__ptm_write_8(ptr %a, i64 %v) alwaysinline {
  store i64 %v, ptr %a
  ret void
}

; One barrier call: the first to stay inline.
define i64 @small.ptm(ptr %p) {
  %v = call i64 @__ptm_read_8(ptr %p)
  ret i64 %v
}

; Three: the one in the loop before the others.
define i64 @big.ptm(ptr %p, ptr %q, i64 %n) {
entry:
  %a = call i64 @__ptm_read_8(ptr %q)
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  call void @__ptm_write_8(ptr %p, i64 %i)
  %i.next = add i64 %i, 1
  %done = icmp eq i64 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %b = call i64 @__ptm_read_8(ptr %p)
  %s = add i64 %a, %b
  ret i64 %s
}

; ALL: define i64 @small.ptm
; ALL: attributes #0 = { alwaysinline }

; BADENV: ptm: PTM_BARRIER_BUDGET='lots' is not a number: the budget stays 12

; The small function's call (5) and the loop's (2), then the first read of
; the big function (5): 12. The last read does not fit.
; TWELVE-LABEL: define i64 @small.ptm
; TWELVE-NEXT: call i64 @__ptm_read_8(ptr %p){{$}}
; TWELVE-LABEL: define i64 @big.ptm
; TWELVE: call i64 @__ptm_read_8(ptr %q){{$}}
; TWELVE: call void @__ptm_write_8(ptr %p, i64 %i){{$}}
; TWELVE: call i64 @__ptm_read_8(ptr %p) [[NOINLINE:#[0-9]+]]
; TWELVE: attributes [[NOINLINE]] = { noinline }

; The environment's budget wins: the small function's call and the loop's.
; SEVEN-LABEL: define i64 @small.ptm
; SEVEN-NEXT: call i64 @__ptm_read_8(ptr %p){{$}}
; SEVEN-LABEL: define i64 @big.ptm
; SEVEN: call i64 @__ptm_read_8(ptr %q) [[NOINLINE:#[0-9]+]]
; SEVEN: call void @__ptm_write_8(ptr %p, i64 %i){{$}}
; SEVEN: call i64 @__ptm_read_8(ptr %p) [[NOINLINE]]
; SEVEN: attributes [[NOINLINE]] = { noinline }

; REPORT: ptm: LTO inlines 0 of 4 barrier calls (0 of 17 instructions; budget 1)
