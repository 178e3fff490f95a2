; setjmp inside a region is not supported: a warning and
; __ptm_unsupported(3, "setjmp", where) before the call, which stays.
; RUN: %opt -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare i32 @setjmp(ptr) returns_twice

@jb = global [200 x i8] zeroinitializer

define void @f() {
entry:
  call void @__ptm_region_begin()
  %r = call i32 @setjmp(ptr @jb)
  call void @__ptm_region_end()
  ret void
}

; WARN: warning: {{.*}}ptm: 'setjmp' inside a transaction is not supported (in function 'f')

; CHECK:      [[WHAT:@.ptm.str[.0-9]*]] = private unnamed_addr constant [7 x i8] c"setjmp\00"
; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(ptr [[WHERE:@.ptm.str[.0-9]*]])
; CHECK-NEXT: call void @__ptm_unsupported(i32 3, ptr [[WHAT]], ptr [[WHERE]])
; CHECK-NEXT: %r = call i32 @setjmp(ptr @jb)
