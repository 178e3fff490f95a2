; With a !dbg location on the call, the `where` string given to
; __ptm_clone_lookup is "file:line:column" of the call (and that of
; __ptm_tx_begin the begin marker's location).
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define void @f(ptr %fp) !dbg !4 {
entry:
  call void @__ptm_region_begin(), !dbg !10
  call void %fp(), !dbg !11
  call void @__ptm_region_end(), !dbg !12
  ret void, !dbg !12
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "calls.c", directory: "/src")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !5, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!10 = !DILocation(line: 4, column: 3, scope: !4)
!11 = !DILocation(line: 5, column: 7, scope: !4)
!12 = !DILocation(line: 6, column: 3, scope: !4)

; CHECK-DAG:  [[CALL:@.ptm.str[.0-9]*]] = private unnamed_addr constant [12 x i8] c"calls.c:5:7\00"
; CHECK-DAG:  [[BEGIN:@.ptm.str[.0-9]*]] = private unnamed_addr constant [12 x i8] c"calls.c:4:3\00"
; CHECK-LABEL: define void @f(ptr %fp)
; CHECK:      call void @__ptm_tx_begin(ptr [[BEGIN]])
; CHECK-NEXT: [[T:%.*]] = call ptr @__ptm_clone_lookup(ptr %fp, ptr [[CALL]])
; CHECK-NEXT: call void [[T]](), !dbg
