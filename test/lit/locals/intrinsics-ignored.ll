; Intrinsics with no effect on shared memory (dbg.value, lifetime, assume,
; expect) stay as they are inside a region: no unsupported report, no barrier.
; RUN: %opt -S %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.assume(i1)
declare i64 @llvm.expect.i64(i64, i64)
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)

@g = global i64 0

define void @f(i64 %a) {
entry:
  %t = alloca i64
  call void @__ptm_region_begin()
  call void @llvm.lifetime.start.p0(i64 8, ptr %t)
  call void @llvm.dbg.value(metadata i64 %a, metadata !10, metadata !DIExpression()), !dbg !12
  %c = icmp sgt i64 %a, 0
  call void @llvm.assume(i1 %c)
  %e = call i64 @llvm.expect.i64(i64 %a, i64 1)
  store i64 %e, ptr @g
  call void @llvm.lifetime.end.p0(i64 8, ptr %t)
  call void @__ptm_region_end()
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}
!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "i.c", directory: "/tmp")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !5, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!5 = !DISubroutineType(types: !6)
!6 = !{null}
!7 = !DIBasicType(name: "long", size: 64, encoding: DW_ATE_signed)
!10 = !DILocalVariable(name: "a", arg: 1, scope: !4, file: !1, line: 1, type: !7)
!12 = !DILocation(line: 2, column: 3, scope: !4)

; CHECK-NOT:  warning
; CHECK-LABEL: define void @f(i64 %a)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call void @llvm.lifetime.start.p0(i64 8, ptr %t)
; CHECK-NEXT: {{#dbg_value\(|call void @llvm.dbg.value\(metadata }}i64 %a,
; CHECK-NEXT: %c = icmp sgt i64 %a, 0
; CHECK-NEXT: call void @llvm.assume(i1 %c)
; CHECK-NEXT: %e = call i64 @llvm.expect.i64(i64 %a, i64 1)
; CHECK-NEXT: call void @__ptm_write_8(ptr @g, i64 %e)
; CHECK-NEXT: call void @llvm.lifetime.end.p0(i64 8, ptr %t)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; CHECK-NOT:  __ptm_unsupported(
; CHECK:      ret void
