; In a unit with no transaction, the pass only adds clones: the bodies of the
; original functions are unchanged, nothing outside a clone calls the runtime.
; RUN: %opt -S %s | FileCheck %s

@g = global i32 0

define internal i32 @twice(i32 %x) {
  %y = mul i32 %x, 2
  ret i32 %y
}
define i32 @get() {
  %v = load i32, ptr @g
  %w = call i32 @twice(i32 %v)
  store i32 %w, ptr @g
  ret i32 %w
}

; CHECK-LABEL: define internal i32 @twice(i32 %x)
; CHECK-NEXT: %y = mul i32 %x, 2
; CHECK-NEXT: ret i32 %y
; CHECK-LABEL: define i32 @get()
; CHECK-NEXT: %v = load i32, ptr @g
; CHECK-NEXT: %w = call i32 @twice(i32 %v)
; CHECK-NEXT: store i32 %w, ptr @g
; CHECK-NEXT: ret i32 %w
; CHECK-LABEL: define i32 @get.ptm()
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: [[W:%.*]] = call i32 @twice.ptm(i32 [[V]])
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 [[W]])
; CHECK-LABEL: define internal i32 @twice.ptm(i32 %x)
; CHECK-NEXT: %y = mul i32 %x, 2
