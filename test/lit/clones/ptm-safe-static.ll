; A PTM_SAFE function (annotate "ptm_safe") is cloned and registered even if it
; is static and nothing in its unit calls it.
; RUN: %opt -S %s | FileCheck %s

@g = global i32 0
@.safe = private unnamed_addr constant [9 x i8] c"ptm_safe\00", section "llvm.metadata"
@.file = private unnamed_addr constant [4 x i8] c"t.c\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @helper, ptr @.safe, ptr @.file, i32 1, ptr null }], section "llvm.metadata"

define internal void @helper(i32 %v) {
  store i32 %v, ptr @g
  ret void
}

; CHECK:      @__ptm_clone_table = private constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @helper, ptr @helper.ptm }]
; CHECK-LABEL: define internal void @helper.ptm(i32 %v)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %v)
; CHECK-LABEL: define internal void @ptm.register_clones()
; CHECK-NEXT: call void @__ptm_register_clones(ptr @__ptm_clone_table, i64 1)
