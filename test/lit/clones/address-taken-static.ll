; A static function whose address is taken (stored in a global table) can be
; reached through a pointer inside a transaction: it is cloned and
; registered; a static function whose address is not taken is not.
; RUN: %opt -S %s | FileCheck %s

@g = global i32 0
@table = global [1 x ptr] [ptr @cb]

define internal void @cb(i32 %v) {
  store i32 %v, ptr @g
  ret void
}
define internal void @not_taken() {
  store i32 0, ptr @g
  ret void
}

; CHECK:      @__ptm_clone_table = private constant [1 x { ptr, ptr }] [{ ptr, ptr } { ptr @cb, ptr @cb.ptm }]
; CHECK-NOT:  @not_taken.ptm
; CHECK-LABEL: define internal void @cb.ptm(i32 %v)
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %v)
; CHECK-NOT:  @not_taken.ptm
