//===- define_stdcxx.h - libstdc++'s node functions of one library -*- C++ -*-//
//
// PTM_DEFINE_STDCXX_, expanded inside PTM_DEFINE_RUNTIME's extern "C" block:
// __ptm_<mangled name> for each out-of-line libstdc++ function that the
// plugin maps (CalleeClassifier.cpp, StdcxxFunctions), with the original's
// signature, implemented by Runtime<P>::Stdcxx (tx_stdcxx.h).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_DEFINE_STDCXX_H
#define PTM_RUNTIME_ABI_DEFINE_STDCXX_H

#define PTM_CXX_(EVENT, RET, MANGLED, PARAMS, CALL)                            \
  RET __ptm_##MANGLED PARAMS {                                                 \
    PtmRuntime::barrier<PtmEvent::EVENT>(::ptm::this_thread());                \
    return PtmRuntime::Stdcxx::CALL;                                           \
  }

#define PTM_DEFINE_STDCXX_                                                     \
  PTM_CXX_(CxxTree, ::ptm::RbNode *,                                           \
           _ZSt18_Rb_tree_incrementPSt18_Rb_tree_node_base,                    \
           (::ptm::RbNode * x), rb_increment(x))                               \
  PTM_CXX_(CxxTree, ::ptm::RbNode *,                                           \
           _ZSt18_Rb_tree_incrementPKSt18_Rb_tree_node_base,                   \
           (::ptm::RbNode * x), rb_increment(x))                               \
  PTM_CXX_(CxxTree, ::ptm::RbNode *,                                           \
           _ZSt18_Rb_tree_decrementPSt18_Rb_tree_node_base,                    \
           (::ptm::RbNode * x), rb_decrement(x))                               \
  PTM_CXX_(CxxTree, ::ptm::RbNode *,                                           \
           _ZSt18_Rb_tree_decrementPKSt18_Rb_tree_node_base,                   \
           (::ptm::RbNode * x), rb_decrement(x))                               \
  PTM_CXX_(CxxTree, void,                                                      \
           _ZSt29_Rb_tree_insert_and_rebalancebPSt18_Rb_tree_node_baseS0_RS_,  \
           (bool l, ::ptm::RbNode *x, ::ptm::RbNode *p, ::ptm::RbNode *h),     \
           rb_insert_and_rebalance(l, x, p, h))                                \
  PTM_CXX_(CxxTree, ::ptm::RbNode *,                                           \
           _ZSt28_Rb_tree_rebalance_for_erasePSt18_Rb_tree_node_baseRS_,       \
           (::ptm::RbNode * z, ::ptm::RbNode * h),                             \
           rb_rebalance_for_erase(z, h))                                       \
  PTM_CXX_(CxxTree, unsigned,                                                  \
           _ZSt20_Rb_tree_black_countPKSt18_Rb_tree_node_baseS1_,              \
           (::ptm::RbNode * n, ::ptm::RbNode * root), rb_black_count(n, root)) \
  PTM_CXX_(CxxList, void, _ZNSt8__detail15_List_node_base7_M_hookEPS0_,        \
           (::ptm::ListNode * n, ::ptm::ListNode * pos), list_hook(n, pos))    \
  PTM_CXX_(CxxList, void, _ZNSt8__detail15_List_node_base9_M_unhookEv,         \
           (::ptm::ListNode * n), list_unhook(n))                              \
  PTM_CXX_(CxxList, void,                                                      \
           _ZNSt8__detail15_List_node_base11_M_transferEPS0_S1_,               \
           (::ptm::ListNode * pos, ::ptm::ListNode * f, ::ptm::ListNode * l),  \
           list_transfer(pos, f, l))                                           \
  PTM_CXX_(CxxList, void, _ZNSt8__detail15_List_node_base10_M_reverseEv,       \
           (::ptm::ListNode * h), list_reverse(h))                             \
  PTM_CXX_(CxxList, void, _ZNSt8__detail15_List_node_base4swapERS0_S1_,        \
           (::ptm::ListNode * a, ::ptm::ListNode * b), list_swap(a, b))        \
  PTM_CXX_(CxxHash, size_t,                                                    \
           _ZNKSt8__detail20_Prime_rehash_policy11_M_next_bktEm,               \
           (const std::__detail::_Prime_rehash_policy *p, size_t n),           \
           next_bkt(p, n))                                                     \
  PTM_CXX_(CxxHash, ::ptm::RehashNeed,                                         \
           _ZNKSt8__detail20_Prime_rehash_policy14_M_need_rehashEmmm,          \
           (const std::__detail::_Prime_rehash_policy *p, size_t b, size_t e,  \
            size_t i),                                                         \
           need_rehash(p, b, e, i))                                            \
  PTM_CXX_(CxxHash, size_t, _ZSt11_Hash_bytesPKvmm,                            \
           (const void *p, size_t n, size_t seed),                             \
           hash_bytes<&std::_Hash_bytes>(p, n, seed))                          \
  PTM_CXX_(CxxHash, size_t, _ZSt15_Fnv_hash_bytesPKvmm,                        \
           (const void *p, size_t n, size_t seed),                             \
           hash_bytes<&std::_Fnv_hash_bytes>(p, n, seed))

#endif // PTM_RUNTIME_ABI_DEFINE_STDCXX_H
