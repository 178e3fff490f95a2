; write inside a region (I/O that cannot be rolled back): a warning and
; __ptm_unsupported(5, "write", where) before the call, which stays as is.
; RUN: %opt -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare i64 @write(i32, ptr, i64)

@s = constant [4 x i8] c"%d\0A\00"

define void @f() {
entry:
  call void @__ptm_region_begin()
  %r = call i64 @write(i32 1, ptr @s, i64 3)
  call void @__ptm_region_end()
  ret void
}

; WARN: warning: {{.*}}ptm: call of 'write' inside a transaction cannot be rolled back; the transaction becomes irrevocable or fails at run time, depending on the library (in function 'f')

; CHECK:      [[WHAT:@.ptm.str[.0-9]*]] = private unnamed_addr constant [6 x i8] c"write\00"
; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(ptr [[WHERE:@.ptm.str[.0-9]*]])
; CHECK-NEXT: call void @__ptm_unsupported(i32 5, ptr [[WHAT]], ptr [[WHERE]])
; CHECK-NEXT: %r = call i64 @write(i32 1, ptr @s, i64 3)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
