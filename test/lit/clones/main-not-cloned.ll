; main is never cloned (no transaction calls it), while another external
; function of the unit is.
; RUN: %opt -S %s | FileCheck %s

@g = global i32 0

define i32 @main() {
  store i32 1, ptr @g
  ret i32 0
}
define void @other() {
  ret void
}

; CHECK:      @__ptm_clone_table = private constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @other, ptr @other.ptm }]
; CHECK-NOT:  @main.ptm
; CHECK:      define void @other.ptm()
; CHECK-NOT:  @main.ptm
