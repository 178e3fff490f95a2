//===- p_cgl_eager_policy.h - global lock + persistent undo log -*- C++ -*-===//
//
// p_cgl_eager: the paper's "p-lock-eager". One global lock serializes
// transactions; writes go in place after their old value is logged in the
// thread's pool slot (PersistentUndoLog: Listing 1's eager sequence, W+3
// sfence and 2W+2 clwb for W written words: PersistentEager, shared with
// p_orec_eager and p_tlrw). Reads are plain loads. A rollback restores
// memory from the volatile undo log (which knows dead stack frames and
// in-flight exception objects), then writes the restored words back and
// marks the slot idle.
//
// gp_cgl_eager and ip_cgl_eager also run under buffered durability
// (kDefersDurability): then writes go in place with a volatile undo log and
// the commit queues the current bytes of what the transaction wrote
// (libs/buffered_in_place.h).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_P_CGL_EAGER_POLICY_H
#define PTM_LIBS_P_CGL_EAGER_POLICY_H

#include "libs/buffered_in_place.h"
#include "libs/persistent_logging.h"
#include "libs/persistent_options.h"
#include "libs/persistent_policy_base.h"
#include "libs/reads_in_place.h"
#include "runtime/base/spin_lock.h"

namespace ptm {

template <class Self, class Options>
struct PCglEagerT : ReadsInPlace<PersistentPolicyBase<Self, Options>> {
  using Base = PersistentPolicyBase<Self, Options>;
  using Base::apply_frees;
  using Base::flush_allocs;
  static constexpr bool kLastAllocTracking = Options::kLastAlloc;
  using Eager = PersistentEagerT<Options::kCoarseLog, Options::kSealedLog>;
  using Buffered = BufferedInPlaceT<Options::kCoarseLog>;
  // Buffered durability: the gp_/ip_ variants (whose log is sealed: a
  // transaction that writes nothing touches its slot not at all).
  static constexpr bool kDefersDurability = Options::kSealedLog;

  // Under buffered durability (pool::buffered, fixed while the pool is open).
  __attribute__((always_inline)) static bool buffered() {
    if constexpr (kDefersDurability)
      return __builtin_expect(pool::buffered, 0);
    return false;
  }

  static inline SpinLock global_lock;

  static void begin(TxThread &tx) {
    pool::enter_tx();
    global_lock.lock();
    if (buffered())
      Buffered::begin(tx);
    else
      Eager::begin(tx);
  }

  static bool commit(TxThread &tx) {
    apply_frees(tx);
    if (buffered()) {
      Buffered::commit(tx);
    } else {
      flush_allocs(tx);
      Eager::commit(tx);
    }
    global_lock.unlock();
    pool::leave_tx(pool::tls_slot);
    return true;
  }

  static void rollback(TxThread &tx) {
    if (buffered())
      Buffered::rollback(tx);
    else
      Eager::rollback(tx);
    global_lock.unlock();
    pool::leave_tx(pool::tls_slot);
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (buffered())
      return Buffered::write(tx, addr, value);
    Eager::write(tx, addr, value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (buffered())
      return Buffered::write_bytes(tx, tm, priv, n);
    Eager::write_bytes(tx, tm, priv, n);
  }
};

// p_cgl_eager: Listing 1 as it is (gp_cgl_eager, ip_cgl_eager: other options).
struct PCglEagerPolicy : PCglEagerT<PCglEagerPolicy, NaiveOptions> {};

} // namespace ptm

#endif // PTM_LIBS_P_CGL_EAGER_POLICY_H
