//===- p_cgl_lazy_policy.h - global lock + persistent redo log --*- C++ -*-===//
//
// p_cgl_lazy: the paper's "p-lock-lazy". One global lock serializes
// transactions; writes are buffered in the thread's pool slot
// (PersistentRedoLog), reads look there first (read-after-write), and commit
// runs Listing 1's lazy sequence (PersistentLazy, shared with the lazy p_
// libraries): 2W+2 clwb and 4 sfence for W written words, nothing for a
// read-only transaction. A rollback drops the log.
//
// ip_rwl_lazy is the same with a readers-writer lock (Lock =
// ReadersWriterTxLock): read-only transactions run in parallel with each
// other and with the one writer, whose writes wait in its log; only its
// write-back excludes them.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_P_CGL_LAZY_POLICY_H
#define PTM_LIBS_P_CGL_LAZY_POLICY_H

#include "libs/global_rw_lock.h"
#include "libs/persistent_logging.h"
#include "libs/persistent_options.h"
#include "libs/persistent_policy_base.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/spin_lock.h"
#include "runtime/stm/solo_lock.h"
#include "runtime/stm/stm_access.h"

#include <type_traits>

namespace ptm {

// PCglLazyT's lock, cgl: every transaction holds one global lock.
struct SerialTxLock {
  SpinLock lock;
  void enter() { lock.lock(); }
  template <class P> void write_hook(TxThread &) {}
  void drain() {}
  void leave() { lock.unlock(); }
};

// PCglLazyT's lock, rwl (GlobalRwLock): transactions read in parallel; the
// first logged write makes the transaction the writer (one at a time), which
// runs beside the readers, its writes in its log, and drains them only for
// its write-back.
struct ReadersWriterTxLock {
  GlobalRwLock lock;
  static inline thread_local bool writer = false;
  void enter() { writer = lock.arrive(); }
  template <class P>
  __attribute__((always_inline)) void write_hook(TxThread &tx) {
    if (__builtin_expect(!writer, 0))
      become_writer<P>(tx);
  }
  template <class P>
  __attribute__((noinline, cold)) void become_writer(TxThread &tx) {
    if (!lock.try_write())
      tx_conflict<P>(tx, AbortCause::WriteConflict);
    writer = true;
  }
  void drain() {
    if (writer)
      lock.drain();
  }
  void leave() {
    if (!writer)
      return lock.read_unlock();
    writer = false;
    lock.write_unlock();
  }
};

// (gp_/ip_cgl_lazy: solo mode, runtime/stm/solo_lock.h)
template <class Options>
using CglTxLock = std::conditional_t<Options::kSolo, SoloTxLock, SerialTxLock>;

template <class Self, class Options, class Lock = CglTxLock<Options>>
struct PCglLazyT : PersistentPolicyBase<Self, Options> {
  using Base = PersistentPolicyBase<Self, Options>;
  using Base::apply_frees;
  using Base::flush_allocs;
  static constexpr bool kLastAllocTracking = Options::kLastAlloc;
  using Lazy = PersistentLazyT<Options::kDeferredFlush, Options::kSealedLog,
                               Options::kLogRing, Options::kCoarseLog,
                               Options::kSkipRewritten>;
  static constexpr bool kReadsInPlace = false;
  // The bytes of the attempt's last allocation are written in place and
  // never logged: a read that the log's summary misses reads them right and
  // a write finds no entry for them, so only read_slow and write_slow test
  // for them.
  static constexpr bool kLastAllocLate = true;
  // Buffered durability (runtime/pool/durability.h) over the log ring.
  static constexpr bool kDefersDurability = Options::kLogRing;
  static constexpr bool kLogsBlocks = Options::kLogRing;
  // Coarse-grained logging: chunk entries (the lock makes memory stable, so
  // a chunk's first write reads it with a plain copy).
  static constexpr bool kCoarse = Options::kCoarseLog;

  static inline Lock global_lock;

  static void begin(TxThread &) {
    pool::SlotHandle &s = pool::enter_tx();
    global_lock.enter();
    if constexpr (Options::kLogRing)
      PersistentRedoLog::begin_ring<Options::kLogStage, kCoarse>(s);
    else
      PersistentRedoLog::begin<Options::kLogStage, kCoarse>(s);
  }

  // The read-only commit (policy_base.h kReadOnlyFastCommit): commit's
  // first branch.
  static constexpr bool kReadOnlyFastCommit = true;
  static PTM_INLINE bool read_only(const TxThread &tx) {
    return allocated_nothing(tx) &&
           !PersistentRedoLog::has_entries(pool::tls_slot);
  }
  static PTM_INLINE void commit_read_only(TxThread &) {
    Lazy::discard();
    global_lock.leave();
    pool::leave_tx(pool::tls_slot);
  }

  static bool commit(TxThread &tx) {
    apply_frees(tx);
    flush_allocs(tx);
    if (!PersistentRedoLog::has_entries(pool::tls_slot) &&
        tx.allocs.size == 0) {
      // Nothing logged, nothing allocated: no record, no commit order.
      commit_read_only(tx);
      return true;
    }
    // The lock orders all writers: a plain counter is the commit order.
    global_lock.drain();
    if constexpr (std::is_same_v<Lock, SoloTxLock>)
      if (SoloTxLock::solo())
        stat_add(tx.stats->solo_commits);
    Lazy::announce(/*order_rmw=*/true);
    Lazy::commit(tx, pool::next_commit_order());
    global_lock.leave();
    Lazy::finish(); // deferred flushing: after the lock
    pool::leave_tx(pool::tls_slot);
    return true;
  }

  static void rollback(TxThread &) {
    Lazy::discard();
    global_lock.leave();
    pool::leave_tx(pool::tls_slot);
  }

  // Fast path: a plain load while the log is empty, or of an aligned access
  // that the log's summary says it has no entry for.
  template <class T> PTM_INLINE static T read(TxThread &tx, const T *addr) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    const pool::SlotHandle &s = pool::tls_slot;
    if (__builtin_expect(!PersistentRedoLog::has_entries(s) ||
                             (in_one_granule(a, sizeof(T)) &&
                              !PersistentRedoLog::may_contain_word(s, a)),
                         1)) {
      T value;
      memcpy(&value, addr, sizeof value);
      return value;
    }
    return read_slow(tx, addr);
  }
  // (read-after-write: the log alone when it has every byte, looked at
  // first: a block the attempt allocated has no entry, its bytes are stored
  // in place and its frees wait for the commit)
  // Pure: it writes nothing and never aborts (the lock keeps memory and the
  // log still while the attempt reads), so the compiler keeps the log's
  // count in a register across a loop of reads instead of loading it again
  // after every call it might make, and merges repeated reads of a word
  // (rbtree's lookup: 822 -> 739 instructions per operation,
  // results/txcost.md).
  template <class T>
  PTM_SLOW __attribute__((pure)) static T read_slow(TxThread &tx,
                                                    const T *addr) {
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (in_one_granule(a, sizeof(T)) &&
        PersistentRedoLog::try_read<kCoarse>(pool::tls_slot, a, value))
      return value;
    if (kLastAllocTracking && in_tx_alloc(tx, addr, sizeof value)) {
      memcpy(&value, addr, sizeof value);
      return value;
    }
    read_bytes(tx, &value, addr, sizeof value);
    return value;
  }

  // Fast path: an aligned write into an entry that exists (the first write
  // of a word or chunk makes it, out of line).
  template <class T>
  PTM_INLINE static void write(TxThread &tx, T *addr, T value) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(
            in_one_granule(a, sizeof(T)) &&
                PersistentRedoLog::try_write<kCoarse>(pool::tls_slot, a, value),
            1))
      return;
    write_slow(tx, addr, value);
  }
  template <class T>
  PTM_OUTLINE static void write_slow(TxThread &tx, T *addr, T value) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    if ((kLastAllocTracking && in_tx_alloc(tx, addr, sizeof value)) ||
        PrivateStack::of(tx).holds(a, sizeof value))
      return (void)memcpy(addr, &value, sizeof value);
    if (!in_one_granule(a, sizeof(T)))
      return write_bytes(tx, addr, &value, sizeof value);
    // (mostly the first write of a word or chunk: one lookup, no loop)
    global_lock.template write_hook<Self>(tx);
    PersistentRedoLog::write_value<kCoarse>(pool::tls_slot, a, value, fill);
  }

  static void read_bytes(TxThread &, void *priv, const void *tm, size_t n) {
    pool::SlotHandle &s = pool::tls_slot;
    if constexpr (kCoarse) {
      // A chunk entry alone when it has the bytes.
      bool logged = PersistentRedoLog::has_entries(s);
      if (!logged || !PersistentRedoLog::overlay<true>(s, priv, tm, n)) {
        memcpy(priv, tm, n);
        if (logged)
          PersistentRedoLog::overlay<true>(s, priv, tm, n);
      }
    } else {
      PersistentRedoLog::read(s, priv, tm, n);
    }
  }

  // The attempt's private stack is written in place (stm_access.h).
  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (PrivateStack::of(tx).holds(reinterpret_cast<uintptr_t>(tm), n))
      return (void)memcpy(tm, priv, n);
    global_lock.template write_hook<Self>(tx);
    if constexpr (kCoarse)
      PersistentRedoLog::write_coarse(pool::tls_slot, tm, priv, n, fill);
    else
      PersistentRedoLog::write(pool::tls_slot, tm, priv, n);
  }
  // A chunk's bytes before its first write (under the global lock: a plain
  // copy).
  static void fill(uintptr_t chunk, void *buf) {
    memcpy(buf, reinterpret_cast<const void *>(chunk),
           PersistentRedoLog::kChunk);
  }
};

// p_cgl_lazy: Listing 1 as it is (gp_cgl_lazy, ip_cgl_lazy: other options).
struct PCglLazyPolicy : PCglLazyT<PCglLazyPolicy, NaiveOptions> {};

} // namespace ptm

#endif // PTM_LIBS_P_CGL_LAZY_POLICY_H
