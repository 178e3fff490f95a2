; The constructor @ptm.register_clones, listed in llvm.global_ctors, passes
; the (original, clone) table and its length to __ptm_register_clones; in a
; unit with transactions the callbacks are strong declarations. Internal
; functions neither called in a transaction nor address-taken are not cloned;
; internal ones called in a transaction (h) are cloned but not registered:
; no other unit and no function pointer can reach them.
; RUN: %opt -S %s | FileCheck %s

@g = global i32 0
declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define internal void @unused() {
  store i32 0, ptr @g
  ret void
}
define internal void @h() {
  store i32 1, ptr @g
  ret void
}
define void @e() {
  ret void
}
define void @f() {
  call void @__ptm_region_begin()
  call void @h()
  call void @__ptm_region_end()
  ret void
}

; CHECK:      @__ptm_clone_table = private constant [2 x { ptr, ptr }]
; CHECK-NOT:  @h.ptm
; CHECK-SAME: { ptr @e, ptr @e.ptm }
; CHECK-SAME: { ptr @f, ptr @f.ptm }
; CHECK:      @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 0, ptr @ptm.register_clones, ptr null }]
; CHECK-NOT:  @unused.ptm
; CHECK-DAG:  define internal void @h.ptm()
; CHECK-DAG:  declare void @__ptm_register_clones(ptr, i64)
; CHECK-LABEL: define internal void @ptm.register_clones()
; CHECK-NEXT: call void @__ptm_register_clones(ptr @__ptm_clone_table, i64 2)
; CHECK-NEXT: ret void
