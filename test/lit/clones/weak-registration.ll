; A unit with clones but no transaction and no use of the ptm API must link
; without a ptm library: every runtime callback is declared extern_weak, and
; the constructor calls __ptm_register_clones only if it is linked.
; RUN: %opt -S %s | FileCheck %s

@g = global i32 0

define void @lib_fn() {
  store i32 1, ptr @g
  ret void
}

; CHECK:      @__ptm_clone_table = private constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @lib_fn, ptr @lib_fn.ptm }]
; CHECK:      @llvm.global_ctors = appending global {{.*}} @ptm.register_clones
; CHECK:      declare extern_weak void @__ptm_write_4(ptr, i32)
; CHECK:      declare extern_weak void @__ptm_register_clones(ptr, i64)
; CHECK-LABEL: define void @lib_fn.ptm()
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 1)
; CHECK-LABEL: define internal void @ptm.register_clones()
; CHECK-NEXT: [[LINKED:%.*]] = icmp ne ptr @__ptm_register_clones, null
; CHECK-NEXT: br i1 [[LINKED]], label %register, label %done
; CHECK:      register:
; CHECK-NEXT: call void @__ptm_register_clones(ptr @__ptm_clone_table, i64 1)
; CHECK-NEXT: br label %done
; CHECK:      done:
; CHECK-NEXT: ret void
