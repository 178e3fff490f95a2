; An external function that no transaction of its unit calls still gets an
; external clone (another unit may call it inside a transaction), registered
; at load time; the original body is unchanged, and no compile-time warning is
; printed for its unsupported constructs (the clone is speculative), though
; the clone still reports them at run time.
; RUN: %opt -S %s 2>&1 | FileCheck %s

@g = global i32 0

define void @ext_api(i32 %v) {
  store i32 %v, ptr @g
  call void asm sideeffect "nop", ""()
  ret void
}

; CHECK-NOT:  warning
; CHECK-LABEL: define void @ext_api(i32 %v)
; CHECK-NEXT: store i32 %v, ptr @g
; CHECK-NEXT: call void asm sideeffect "nop", ""()
; CHECK-NEXT: ret void
; CHECK-LABEL: define void @ext_api.ptm(i32 %v)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %v)
; CHECK-NEXT: call void @__ptm_unsupported(i32 1,
; CHECK-NEXT: call void asm sideeffect "nop", ""()
