; Inline asm inside a region: a warning, and __ptm_unsupported(1, "inline
; asm", where) just before it; the asm stays.
; RUN: %opt -S %s 2>%t.err | FileCheck %s
; RUN: FileCheck --check-prefix=WARN %s < %t.err

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define void @f() {
entry:
  call void @__ptm_region_begin()
  call void asm sideeffect "pause", ""()
  call void @__ptm_region_end()
  ret void
}

; WARN: warning: {{.*}}ptm: inline assembly inside a transaction cannot be made transactional; it runs as is (in function 'f')

; CHECK:      [[WHAT:@.ptm.str[.0-9]*]] = private unnamed_addr constant [11 x i8] c"inline asm\00"
; CHECK:      [[WHERE:@.ptm.str[.0-9]*]] = private unnamed_addr constant [13 x i8] c"function 'f'\00"
; CHECK-LABEL: define void @f()
; CHECK:      call void @__ptm_tx_begin(ptr [[WHERE]])
; CHECK-NEXT: call void @__ptm_unsupported(i32 1, ptr [[WHAT]], ptr [[WHERE]])
; CHECK-NEXT: call void asm sideeffect "pause", ""()
; CHECK-NEXT: call i32 @__ptm_tx_commit()
