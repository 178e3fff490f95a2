; libstdc++'s out-of-line node functions inside a region become their
; transactional versions __ptm_<mangled name> (red-black tree, list, rehash
; policy, hashing); std::__throw_* and std::allocator<char>'s empty
; constructor and destructor are called as they are; outside the region
; nothing changes.
; RUN: %opt -S %s | FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare void @__ptm_region_begin()
declare void @__ptm_region_end()

declare ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr) #0
declare void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext, ptr, ptr, ptr)
declare ptr @_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_(ptr, ptr)
declare void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr, ptr)
declare { i8, i64 } @_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm(ptr, i64, i64, i64)
declare i64 @_ZSt11_Hash_bytesPKvmm(ptr, i64, i64)
declare void @_ZSt20__throw_length_errorPKc(ptr)
declare void @_ZSt19__throw_range_errorPKc(ptr)
declare void @_ZNSaIcEC1Ev(ptr)
declare void @_ZNSaIcED1Ev(ptr)

@n = global [32 x i8] zeroinitializer
@h = global [32 x i8] zeroinitializer
@msg = constant [4 x i8] c"err\00"

define ptr @f(i1 %c) {
entry:
  call void @__ptm_region_begin()
  %a = alloca i8
  %r = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr @n) #0
  call void @_ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext true, ptr @n, ptr %r, ptr @h)
  %e = call ptr @_ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_(ptr @n, ptr @h)
  call void @_ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr @n, ptr @h)
  %p = call { i8, i64 } @_ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm(ptr @h, i64 1, i64 2, i64 3)
  %x = call i64 @_ZSt11_Hash_bytesPKvmm(ptr @n, i64 8, i64 7)
  call void @_ZNSaIcEC1Ev(ptr %a)
  call void @_ZNSaIcED1Ev(ptr %a)
  br i1 %c, label %throw, label %done
throw:
  call void @_ZSt20__throw_length_errorPKc(ptr @msg)
  call void @_ZSt19__throw_range_errorPKc(ptr @msg)
  br label %done
done:
  call void @__ptm_region_end()
  %o = call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr @n)
  ret ptr %o
}

attributes #0 = { memory(read) }

; CHECK-LABEL: define ptr @f(
; CHECK:      call void @__ptm_tx_begin(
; CHECK:      [[R:%.*]] = call ptr @__ptm__ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr @n){{$}}
; CHECK-NEXT: call void @__ptm__ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_(i1 zeroext true, ptr @n, ptr [[R]], ptr @h)
; CHECK-NEXT: call ptr @__ptm__ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_(ptr @n, ptr @h)
; CHECK-NEXT: call void @__ptm__ZNSt8__detail15_List_node_base7_M_hookEPS0_(ptr @n, ptr @h)
; CHECK-NEXT: call { i8, i64 } @__ptm__ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm(ptr @h, i64 1, i64 2, i64 3)
; CHECK-NEXT: call i64 @__ptm__ZSt11_Hash_bytesPKvmm(ptr @n, i64 8, i64 7)
; CHECK-NEXT: call void @_ZNSaIcEC1Ev(
; CHECK-NEXT: call void @_ZNSaIcED1Ev(
; CHECK:      call void @_ZSt20__throw_length_errorPKc(ptr @msg)
; CHECK-NEXT: call void @_ZSt19__throw_range_errorPKc(ptr @msg)
; CHECK:      call i32 @__ptm_tx_commit()
; CHECK:      ptm.committed:
; CHECK:      call ptr @_ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base(ptr @n)
; CHECK-NOT:  call void @__ptm_unsupported
