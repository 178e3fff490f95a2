; Attributes that describe the original body (memory(read), nosync, nofree,
; willreturn, readonly arguments) are false for its clone, whose accesses are
; runtime calls: they are dropped from the clone and from the call site of the
; clone in the region; the original keeps them.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@g = global i32 0

define internal i32 @get(ptr readonly %p) #0 {
  %v = load i32, ptr %p
  ret i32 %v
}

define void @f() {
entry:
  call void @__ptm_region_begin()
  %v = call i32 @get(ptr @g) #0
  store i32 %v, ptr @g
  call void @__ptm_region_end()
  ret void
}

attributes #0 = { memory(read) nosync nofree willreturn nounwind }

; CHECK:      define internal i32 @get(ptr readonly %p) #[[ORIG:[0-9]+]]
; CHECK-LABEL: define void @f()
; CHECK:      %v = call i32 @get.ptm(ptr @g) #[[SITE:[0-9]+]]
; CHECK:      define internal i32 @get.ptm(ptr %p) #[[SITE]]
; CHECK-NEXT: [[V:%.*]] = call i32 @__ptm_read_4(ptr %p)
; CHECK-DAG:  attributes #[[ORIG]] = { nofree nosync nounwind willreturn memory(read) }
; CHECK-DAG:  attributes #[[SITE]] = { nounwind }
