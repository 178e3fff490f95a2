; Calls real code makes in critical sections become their transactional
; versions: strtol (and glibc's C23 name for it), rand_r, qsort with a
; comparator (passed as it is: the runtime looks up its clone), snprintf
; (variadic: same arguments) and _FORTIFY_SOURCE's __snprintf_chk; div and
; isblank stay as they are (pure). No call is reported.
; RUN: %opt -S %s 2>&1 | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

@s = global [16 x i8] zeroinitializer
@seed = global i32 0
@arr = global [8 x i32] zeroinitializer
@fmt = private constant [3 x i8] c"%s\00"

declare i64 @strtol(ptr, ptr, i32)
declare i64 @__isoc23_strtol(ptr, ptr, i32)
declare i32 @rand_r(ptr)
declare void @qsort(ptr, i64, i64, ptr)
declare i32 @snprintf(ptr, i64, ptr, ...)
declare i32 @__snprintf_chk(ptr, i64, i32, i64, ptr, ...)
declare i64 @div(i32, i32)
declare i32 @isblank(i32)

define internal i32 @cmp(ptr %a, ptr %b) {
  %x = load i32, ptr %a
  %y = load i32, ptr %b
  %d = sub i32 %x, %y
  ret i32 %d
}

define void @f(ptr %end) {
entry:
  call void @__ptm_region_begin()
  %a = call i64 @strtol(ptr @s, ptr %end, i32 10)
  %b = call i64 @__isoc23_strtol(ptr @s, ptr null, i32 0)
  %c = call i32 @rand_r(ptr @seed)
  call void @qsort(ptr @arr, i64 8, i64 4, ptr @cmp)
  %d = call i32 (ptr, i64, ptr, ...) @snprintf(ptr @s, i64 16, ptr @fmt, ptr @s)
  %e = call i32 (ptr, i64, i32, i64, ptr, ...) @__snprintf_chk(ptr @s, i64 16, i32 1, i64 16, ptr @fmt, ptr @s)
  %q = call i64 @div(i32 7, i32 2)
  %k = call i32 @isblank(i32 32)
  call void @__ptm_region_end()
  ret void
}

; CHECK-NOT:  warning
; CHECK-LABEL: define void @f(ptr %end)
; CHECK:      call void @__ptm_tx_begin(
; CHECK-NEXT: call i64 @__ptm_strtol(ptr @s, ptr %end, i32 10)
; CHECK-NEXT: call i64 @__ptm___isoc23_strtol(ptr @s, ptr null, i32 0)
; CHECK-NEXT: call i32 @__ptm_rand_r(ptr @seed)
; CHECK-NEXT: call void @__ptm_qsort(ptr @arr, i64 8, i64 4, ptr @cmp)
; CHECK-NEXT: call i32 (ptr, i64, ptr, ...) @__ptm_snprintf(ptr @s, i64 16, ptr @fmt, ptr @s)
; CHECK-NEXT: call i32 (ptr, i64, i32, i64, ptr, ...) @__ptm___snprintf_chk(ptr @s, i64 16, i32 1, i64 16, ptr @fmt, ptr @s)
; CHECK-NEXT: call i64 @div(i32 7, i32 2)
; CHECK-NEXT: call i32 @isblank(i32 32)
; CHECK-NEXT: call i32 @__ptm_tx_commit()
; The comparator, address-taken, gets a registered clone.
; CHECK:      define internal i32 @cmp.ptm(
