; A load and a store of i32 inside a region become 4-byte barriers; the
; region markers become checkpoint, begin and commit with the retry edge.
; RUN: %opt -S %s | FileCheck %s

@g = global i32 0

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = load i32, ptr @g
  %w = add i32 %v, 1
  store i32 %w, ptr @g
  call void @__ptm_region_end()
  ret void
}

; CHECK-LABEL: define void @f()
; CHECK:      %[[BUF:.*]] = call ptr @__ptm_tx_checkpoint()
; CHECK-NEXT: call i32 @__ptm_setjmp(ptr %[[BUF]]) #[[RT:[0-9]+]]
; CHECK-NEXT: br label %[[RESTART:.*]]
; CHECK:      [[RESTART]]:
; CHECK-NEXT: call void @__ptm_tx_begin(ptr @.ptm.str)
; CHECK-NEXT: %[[V:.*]] = call i32 @__ptm_read_4(ptr @g)
; CHECK-NEXT: %[[W:.*]] = add i32 %[[V]], 1
; CHECK-NEXT: call void @__ptm_write_4(ptr @g, i32 %[[W]])
; CHECK-NEXT: %[[R:.*]] = call i32 @__ptm_tx_commit()
; CHECK-NEXT: %[[C:.*]] = icmp ne i32 %[[R]], 0
; CHECK-NEXT: br i1 %[[C]], label %[[RESTART]], label %[[DONE:.*]]
; CHECK:      [[DONE]]:
; CHECK-NEXT: ret void
; CHECK-NOT:  __ptm_region_begin
; CHECK: attributes #[[RT]] = { returns_twice }
