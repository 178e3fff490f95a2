//===- persistent_logging.h - Listing 1 logging points ----------*- C++ -*-===//
//
// The persistent transformation of Listing 1 (paper, Section III-A) as
// pieces shared by every p_ library:
//
//   PersistentEager   undo log in the thread's pool slot (begin: status
//                     active; each write: log entry clwb, sfence, store,
//                     data clwb; commit: sfence, status idle; rollback:
//                     restore, clwb the restored words, sfence, status idle)
//                     -> 2W+2 clwb, W+3 sfence per transaction
//   SlotRedoLogT      the lazy write set kept in the slot's entries (a
//                     volatile index finds them for read-after-write), with
//                     RedoLog's interface
//   PersistentLazy    commit of the slot redo log: flush the log, sfence,
//                     status committed with the commit order, sfence, write
//                     back + clwb, sfence, status idle, sfence
//                     -> 2W+2 clwb, 4 sfence (sealed log of gp_/ip_: the
//                     first two sfence are one)
//   PersistentLoggingT<Self, Options>  the logging points of stm_logging.h
//                     made of these, for the concurrent STM templates, with
//                     the optimizations OPTIONS switches on
//                     (persistent_options.h); PersistentLogging (p_),
//                     GpLogging (gp_) and IpLogging (ip_) are its three sets
//
// p_cgl_eager and p_cgl_lazy use PersistentEager / PersistentLazy directly.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_PERSISTENT_LOGGING_H
#define PTM_LIBS_PERSISTENT_LOGGING_H

#include "libs/persistent_options.h"
#include "libs/persistent_policy_base.h"
#include "runtime/base/hot_cold.h"
#include "runtime/persist/persistent_redo_log.h"
#include "runtime/persist/persistent_undo_log.h"
#include "runtime/pool/commit_queue.h"
#include "runtime/stm/stm_access.h"
#include "runtime/stm/stm_policy.h"

#include <atomic>
#include <cstring>

#if PTM_TEST_HOOKS
// Test-only library copies (test/pool): called by a deferred-flushing
// commit after its write-back under the locks, before its flushes and its
// idle status, or by a log ring's commit once its locks are released (its
// lines are flushed by the next commit); test_deferred_crash.cpp stops the
// process there.
extern "C" void (*ptm_test_deferred_hook)(void);
#endif

namespace ptm {

// COARSE: coarse-grained logging (paper IV-B): a write logs the chunks it
// touches that this transaction has not logged yet, and fences only then
// (PersistentUndoLog::log_chunks; C chunks: C*L + W + 2 clwb, C + 3 sfence).
// SEALED: sealed log, the status goes active with the first entry
// (PersistentUndoLog::activate_on_first_entry): W+2 sfence.
template <bool Coarse, bool Sealed = false> struct PersistentEagerT {
  // Listing 1 Begin.Eager: status active, clwb, sfence (sealed: nothing
  // persistent yet).
  static void begin(TxThread &tx) {
    tx.undo.clear();
    if constexpr (Coarse)
      PersistentUndoLog::begin_coarse(pool::tls_slot);
    if constexpr (Sealed)
      PersistentUndoLog::reset(pool::tls_slot);
    else
      PersistentUndoLog::begin(pool::tls_slot);
  }

  // Before a write logs: a sealed log's first entry activates the slot.
  __attribute__((always_inline)) static void before_logging() {
    if constexpr (Sealed)
      PersistentUndoLog::activate_on_first_entry(pool::tls_slot);
  }

  // Logs the old bytes of [addr, addr + n) and fences if it logged anything.
  __attribute__((always_inline)) static void log_old(const void *addr,
                                                     size_t n) {
    before_logging();
    if constexpr (Coarse) {
      if (PersistentUndoLog::log_chunks(pool::tls_slot, addr, n))
        persist::sfence();
    } else {
      PersistentUndoLog::log_old(pool::tls_slot, addr, n);
      persist::sfence();
    }
  }

  // Listing 1 Write.Eager (the location is ours): log the old value and
  // flush the entry, sfence, store, flush the data. The volatile undo log
  // (tx.undo) is what an abort restores from. Inline: with coarse-grained
  // logging, a write into a chunk this transaction has logged (store and
  // flush only); the rest logs (an entry, its clwb, an sfence) out of line.
  template <class T>
  PTM_INLINE static void write(TxThread &tx, T *addr, T value) {
    if constexpr (Coarse)
      if (__builtin_expect(logged_granule(addr, sizeof(T)), 1))
        return store_granule(tx, addr, value);
    write_logging(tx, addr, value);
  }
  template <class T>
  PTM_OUTLINE static void write_logging(TxThread &tx, T *addr, T value) {
    if (!persist::is_pool_data(addr, sizeof(T)))
      return store_volatile(tx, addr, value);
    log_old(addr, sizeof(T));
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
    persist::flush_range(addr, sizeof(T));
  }
  // A write outside the pool's data (stack, DRAM heap, globals): nothing
  // there survives a crash, so the volatile undo log, which an abort
  // restores from, is all it needs: no entry, clwb or sfence
  // (data_flush.h).
  template <class T>
  static void store_volatile(TxThread &tx, T *addr, T value) {
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }
  // The store of a write within one granule (one line) whose old bytes are
  // logged and durable.
  template <class T>
  PTM_INLINE static void store_granule(TxThread &tx, T *addr, T value) {
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
    persist::clwb(addr);
  }
  // Coarse-grained logging: [addr, addr + n) lies in one granule of a chunk
  // of the chunk space that this transaction has logged.
  static PTM_INLINE bool logged_granule(const void *addr, size_t n) {
    constexpr uintptr_t g = pool::kLogGranularity;
    auto a = reinterpret_cast<uintptr_t>(addr);
    uintptr_t c = a & ~(g - 1);
    return in_one_granule(a, n) && in_chunk_space(c, g) &&
           tls_log_index.find(c) >= 0;
  }
  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (n == 0)
      return;
    bool durable = persist::is_pool_data(tm, n); // (else: store_volatile)
    if (durable)
      log_old(tm, n);
    tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
    if (durable)
      persist::flush_range(tm, n);
  }

  // Listing 1 Commit.Eager: sfence, status idle, clwb, sfence (nothing when
  // the attempt wrote nothing).
  static void commit(TxThread &tx) {
    PersistentUndoLog::commit(pool::tls_slot);
    tx.undo.clear();
  }

  // Abort: restore memory (skipping dead stack frames and exception objects),
  // write the restored words back, sfence, status idle, clwb, sfence.
  static void rollback(TxThread &tx) {
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
    PersistentUndoLog::rollback(pool::tls_slot, Sealed);
  }
};

using PersistentEager = PersistentEagerT<false>;

// The redo log of a lazy p_ library: its entries are the slot's log entries.
// COARSE: coarse-grained logging; the first write into a chunk reads it
// through SELF's read barrier (consistent and validated with the
// transaction's other reads), so the whole chunk is in the write set; SIZE /
// GRANULE list the entries' keys (a chunk entry: its chunk address).
// RING: the log ring's records (persistent_options.h kLogRing).
// STAGE: the records are built in the thread's stage (log_stage.h).
template <class Self, bool Coarse, bool Ring = false, bool Stage = false>
struct SlotRedoLogT {
  bool empty() const { return !PersistentRedoLog::has_entries(pool::tls_slot); }
  size_t size() const { return tls_log_index.nkeys; }
  uintptr_t granule(size_t i) const { return tls_log_index.keys[i].key; }

  // A new, empty log (a new generation of the slot).
  void clear() {
    if constexpr (Ring)
      PersistentRedoLog::begin_ring<Stage, Coarse>(pool::tls_slot);
    else
      PersistentRedoLog::begin<Stage, Coarse>(pool::tls_slot);
  }
  void release() {}

  __attribute__((always_inline)) bool may_contain(uintptr_t granule) const {
    return PersistentRedoLog::may_contain_word(pool::tls_slot, granule);
  }
  bool may_overlap(uintptr_t a, size_t n) const {
    return PersistentRedoLog::may_contain<Coarse>(pool::tls_slot, a, n);
  }
  template <class T> bool try_get(uintptr_t a, T &value) const {
    return PersistentRedoLog::try_read<Coarse>(pool::tls_slot, a, value);
  }
  // The inline fast path of put (RedoLog::try_put): the entry exists (never
  // in the private stack, whose writes are made in place).
  template <class T>
  __attribute__((always_inline)) bool try_put(uintptr_t a, const T &value,
                                              PrivateStack) {
    return PersistentRedoLog::try_write<Coarse>(pool::tls_slot, a, value);
  }
  void put(uintptr_t addr, const void *src, size_t n) {
    if constexpr (Coarse)
      PersistentRedoLog::write_coarse(
          pool::tls_slot, reinterpret_cast<void *>(addr), src, n, fill_chunk);
    else
      PersistentRedoLog::write(pool::tls_slot, reinterpret_cast<void *>(addr),
                               src, n);
  }
  // put of a T at A (RedoCore's write_slow: mostly the first write of a
  // word or chunk, which write_value makes without put's loop).
  template <class T> void put_value(uintptr_t a, const T &value) {
    if (in_one_granule(a, sizeof(T)))
      return PersistentRedoLog::write_value<Coarse>(pool::tls_slot, a, value,
                                                    fill_chunk);
    put(a, &value, sizeof(T));
  }
  // (the coarse logs' FILL: the algorithm's read of a whole chunk)
  PTM_INLINE static void fill_chunk(uintptr_t chunk, void *buf) {
    Self::fill_chunk(buf, chunk, PersistentRedoLog::kChunk);
  }
  bool overlay(void *dst, uintptr_t addr, size_t n) const {
    if (empty())
      return false;
    return PersistentRedoLog::overlay<Coarse>(
        pool::tls_slot, dst, reinterpret_cast<const void *>(addr), n);
  }
};

// Deferred flushing (paper IV-D): the orders of the committed transactions
// whose slot is not idle yet, with the summary of the words they wrote (the
// 64-bit fold of the redo index's key summary). A transaction whose lines are
// durable waits, before it marks its slot idle, until no transaction with an
// earlier order that may have written one of its words is still
// committed-but-not-idle: otherwise recovery could replay the earlier one's
// log alone over a word the later one wrote (whose log is gone), undoing the
// later value. A conflicting later writer got the lock after the earlier
// released it, i.e. after the earlier announced.
struct DeferredOrder {
  static inline std::atomic<uint64_t> flushing[pool::kMaxSlots];
  static inline std::atomic<uint64_t> written[pool::kMaxSlots];
  static inline std::atomic<uint32_t> high_water{0};

  static void announce(uint32_t slot, uint64_t order, uint64_t summary) {
    uint32_t h = high_water.load(std::memory_order_relaxed);
    while (h <= slot && !high_water.compare_exchange_weak(h, slot + 1))
      ;
    written[slot].store(summary, std::memory_order_relaxed);
    flushing[slot].store(order, std::memory_order_seq_cst);
  }
  static void wait_earlier(uint32_t slot, uint64_t order, uint64_t summary) {
    uint32_t n = high_water.load(std::memory_order_acquire);
    for (uint32_t i = 0; i < n; ++i) {
      if (i == slot)
        continue;
      for (unsigned spins = 0;;) {
        uint64_t o = flushing[i].load(std::memory_order_acquire);
        if (o == 0 || o >= order)
          break;
        // (a summary read after that slot moved on belongs to a later
        // transaction, which is not earlier: then o changed, re-checked)
        if ((written[i].load(std::memory_order_acquire) & summary) == 0 &&
            flushing[i].load(std::memory_order_acquire) == o)
          break;
        spin_pause(spins);
      }
    }
  }
  static void done(uint32_t slot) {
    flushing[slot].store(0, std::memory_order_release);
  }
};

// Listing 1 Commit.Lazy, after the algorithm's locking and validation; the
// attempt's private stack frames are not written back. DEFERRED: deferred
// flushing, commit() leaves the clwbs of the written lines and the idle
// status to finish(), which the caller runs after releasing its locks.
// DEFERRED: deferred flushing (IV-D); SEALED: the sealed commit (one fence
// for the entries and the commit record), except for an attempt that
// allocated pool blocks: their lines must be durable before its record is.
// RING: the log ring (log_ring.h), which defers the flushes of the written
// lines to the next commit's fence and has no idle status to write.
// COARSE: coarse-grained logging (the log ring's logged blocks).
// SKIP_REWRITTEN: the ring's commit leaves the last record's entries that
// its own record rewrites unflushed (log_ring.h flush_last).
template <bool Deferred, bool Sealed = false, bool Ring = false,
          bool Coarse = false, bool SkipRewritten = false>
struct PersistentLazyT {
  static_assert(!Ring || (Deferred && Sealed), "the ring defers and seals");
  static_assert(!SkipRewritten || Ring, "only the ring keeps records");
  struct Pending {
    bool on;
    uint64_t order, summary;
    uintptr_t lo, hi;
  };
  static inline thread_local Pending pending{};

  // A writer is about to take its commit order (the ring's floor must not
  // pass it); ORDER_RMW: from pool::next_commit_order, at once
  // (ReplayFloor::announce).
  static void announce(bool order_rmw = false) {
    if constexpr (Ring)
      if (pool::tls_slot.count != 0 && !pool::buffered)
        ReplayFloor::announce(pool::tls_slot.index, order_rmw);
  }

  static void commit(TxThread &tx, uint64_t order) {
    PrivateStack stack = PrivateStack::of(tx);
    bool sealed = Sealed && !pool::tls_slot.flushed_blocks;
    if constexpr (Ring) {
      // Buffered durability: written back, queued for the persister.
      if (__builtin_expect(pool::buffered, 0))
        return pool::commit_buffered(pool::tls_slot, tx, stack.lo, stack.hi);
      log_blocks(tx);
      pending.on = PersistentRedoLog::commit_ring<SkipRewritten>(
          pool::tls_slot, order, sealed, stack.lo, stack.hi);
    } else if constexpr (Deferred) {
      pool::SlotHandle &s = pool::tls_slot;
      if (s.count == 0) // (counts the stats, writes back entries outside)
        return PersistentRedoLog::commit(s, order, sealed, stack.lo, stack.hi);
      uint64_t summary = tls_log_index.summary.fold();
      DeferredOrder::announce(s.index, order, summary);
      PersistentRedoLog::commit_deferred(s, order, sealed, stack.lo, stack.hi);
      pending = Pending{true, order, summary, stack.lo, stack.hi};
    } else {
      PersistentRedoLog::commit(pool::tls_slot, order, sealed, stack.lo,
                                stack.hi);
    }
  }
  // The log ring: the small pool blocks the transaction allocated go into
  // its record (flush_allocs flushed the others).
  static void log_blocks(TxThread &tx) {
    for (size_t i = 0; i < tx.allocs.size; ++i) {
      void *p = tx.allocs[i].ptr;
      if (!pool::pool_heap || !pool::pool_heap->contains(p))
        continue;
      size_t n = tx.allocs[i].size;
      if (PersistentRedoLog::logs_block<Coarse>(n))
        PersistentRedoLog::log_block<Coarse>(pool::tls_slot, p, n);
    }
  }

  // True if a commit is still to be finished.
  // (The ring: nothing but the test hook.)
  static bool has_pending() { return Deferred && pending.on; }
  static void finish() {
    if constexpr (Deferred) {
      if (!pending.on)
        return;
      pending.on = false;
#if PTM_TEST_HOOKS
      if (ptm_test_deferred_hook) // written back, nothing flushed yet
        ptm_test_deferred_hook();
#endif
      if constexpr (Ring)
        return;
      pool::SlotHandle &s = pool::tls_slot;
      PersistentRedoLog::finish_deferred(s, pending.lo, pending.hi, [&] {
        DeferredOrder::wait_earlier(s.index, pending.order, pending.summary);
      });
      DeferredOrder::done(s.index);
    }
  }
  static void discard() {
    if constexpr (Ring)
      if (pool::tls_slot.count != 0 && !pool::buffered)
        ReplayFloor::withdraw(pool::tls_slot.index);
    PersistentRedoLog::discard(pool::tls_slot);
  }
};
using PersistentLazy = PersistentLazyT<false>;

template <class Self, class Options>
struct PersistentLoggingT : PersistentPolicyBase<Self, Options, StmPolicyBase> {
  using Base = PersistentPolicyBase<Self, Options, StmPolicyBase>;
  using Opt = Options;
  static constexpr bool kIrrevocable = false;
  static constexpr bool kLastAllocTracking = Options::kLastAlloc;
  static constexpr bool kLogRing = Options::kLogRing;
  static constexpr bool kSolo = Options::kSolo;
  using Lazy = PersistentLazyT<Options::kDeferredFlush, Options::kSealedLog,
                               Options::kLogRing, Options::kCoarseLog,
                               Options::kSkipRewritten>;
  // IP model: no per-transaction quiescence (ptm_close still waits for every
  // transaction in the pool): Base::kQuiesce.
  static constexpr bool kCoarseLog = Options::kCoarseLog;
  // Orec granularity = log granularity (the paper's IP model, IV-B): with
  // coarse-grained logging one orec per chunk.
  static constexpr uintptr_t kConflictGranule =
      kCoarseLog ? pool::kLogGranularity : kGranule;
  using Redo =
      SlotRedoLogT<Self, kCoarseLog, Options::kLogRing, Options::kLogStage>;
  using Eager = PersistentEagerT<kCoarseLog, Options::kSealedLog>;

  // Coarse-grained logging: a write's log entries cover its whole chunks,
  // so the algorithm locks (or signs) them whole.
  __attribute__((always_inline)) static AccessSpan conflict_span(uintptr_t a,
                                                                 size_t n) {
    if constexpr (kCoarseLog) {
      constexpr uintptr_t g = pool::kLogGranularity;
      uintptr_t lo = a, hi = a + n;
      if (in_chunk_space(lo & ~(g - 1), g))
        lo &= ~(g - 1);
      if (in_chunk_space((hi - 1) & ~(g - 1), g))
        hi = ((hi - 1) & ~(g - 1)) + g;
      return {lo, hi - lo};
    }
    return {a, n};
  }

  // The slot is claimed (and the default pool opened) before anything else.
  static __attribute__((always_inline)) void attempt_begin(TxThread &) {
    pool::enter_tx();
  }
  // Out of the pool while begin waits for the hourglass (hourglass.h).
  static void attempt_leave() { pool::leave_tx(pool::tls_slot); }
  static void attempt_reenter() { pool::enter_tx(); }
  // Deferred flushing: the commit's locks are released by now.
  static __attribute__((always_inline)) void attempt_end(TxThread &) {
    if constexpr (Options::kDeferredFlush)
      Lazy::finish();
    pool::leave_tx(pool::tls_slot);
  }
  // Deferred frees through the attempt's own barriers; allocated blocks
  // written back before the commit's fences.
  static void commit_begin(TxThread &tx) {
    Base::apply_frees(tx);
    Base::flush_allocs(tx);
  }

  static void eager_begin(TxThread &tx) { Eager::begin(tx); }
  template <class T>
  __attribute__((always_inline)) static void write_in_place(TxThread &tx,
                                                            T *addr, T value) {
    Eager::write(tx, addr, value);
  }
  static void write_bytes_in_place(TxThread &tx, void *tm, const void *priv,
                                   size_t n) {
    Eager::write_bytes(tx, tm, priv, n);
  }
  static void eager_commit(TxThread &tx) {
    if constexpr (kFencePipeline)
      pipeline_drain(false);
    Eager::commit(tx);
  }
  static void eager_rollback(TxThread &tx) {
    if constexpr (kFencePipeline)
      pending_store.addr = nullptr; // never stored: nothing to undo
    Eager::rollback(tx);
  }

  // Fence pipelining (paper IV-C, tlrw): a write logs its old value and
  // flushes the entry, but its store and the store's clwb wait for the next
  // fence the transaction executes anyway: the next access's lock
  // acquisition (FENCED), else an sfence issued then. A read waits for it
  // only if it fenced or reads the pending location; commit drains it behind
  // an sfence. W writes to fresh locks: 2W+2 clwb, 4 sfence (not W+3).
  static constexpr bool kFencePipeline = Options::kFencePipeline;
  struct PendingStore {
    void *addr;
    uint64_t value;
    size_t size;
  };
  static inline thread_local PendingStore pending_store{};

  static void pipeline_drain(bool fenced) {
    PendingStore &p = pending_store;
    if (!p.addr)
      return;
    if (!fenced)
      persist::sfence();
    else
      persist::fenced_by_rmw();
    memcpy(p.addr, &p.value, p.size);
    // (pool data: store_volatile took the rest)
    persist::flush_range(p.addr, p.size);
    p.addr = nullptr;
  }
  __attribute__((always_inline)) static void
  pipeline_read(TxThread &, bool fenced, const void *addr, size_t n) {
    PendingStore &p = pending_store;
    if (!p.addr)
      return;
    auto a = reinterpret_cast<uintptr_t>(addr);
    auto q = reinterpret_cast<uintptr_t>(p.addr);
    if (fenced || (a < q + p.size && q < a + n))
      pipeline_drain(fenced);
  }
  // A store into the attempt's stack frames is not deferred: by the next
  // fence its frame may have returned and the address may hold another
  // frame (or the commit's own). Inline: with coarse-grained logging, a
  // write into a logged chunk with no store pending (it stores at once);
  // the rest out of line.
  template <class T>
  PTM_INLINE static void pipelined_write(TxThread &tx, T *addr, T value,
                                         bool fenced) {
    if constexpr (kCoarseLog)
      if (__builtin_expect(!fenced && !pending_store.addr &&
                               Eager::logged_granule(addr, sizeof(T)),
                           1))
        return Eager::store_granule(tx, addr, value);
    pipelined_write_slow(tx, addr, value, fenced);
  }
  template <class T>
  PTM_OUTLINE static void pipelined_write_slow(TxThread &tx, T *addr, T value,
                                               bool fenced) {
    static_assert(sizeof(T) <= sizeof(uint64_t), "pipelined store");
    pipeline_drain(fenced);
    if (PrivateStack::of(tx).contains(reinterpret_cast<uintptr_t>(addr)))
      return write_in_place(tx, addr, value);
    if (!persist::is_pool_data(addr, sizeof(T)))
      return Eager::store_volatile(tx, addr, value);
    Eager::before_logging();
    if constexpr (kCoarseLog) {
      // Every chunk entry logged before is durable by now (its store was
      // drained behind a fence): a write into a logged chunk stores at once.
      if (!PersistentUndoLog::log_chunks(pool::tls_slot, addr, sizeof(T))) {
        tx.undo.append_value(addr);
        memcpy(addr, &value, sizeof value);
        persist::flush_range(addr, sizeof(T));
        return;
      }
    } else {
      PersistentUndoLog::log_old(pool::tls_slot, addr, sizeof(T));
    }
    tx.undo.append_value(addr);
    PendingStore &p = pending_store;
    memcpy(&p.value, &value, sizeof value);
    p.size = sizeof value;
    p.addr = addr;
  }

  static void redo_announce(TxThread &) { Lazy::announce(); }
  // (Deferred flushing: the log stays until attempt_end has flushed. The
  // ring: the next attempt begins the next record.)
  static void redo_commit(TxThread &tx, Redo &redo, uint64_t order) {
    Lazy::commit(tx, order);
    if (!Options::kLogRing && !Lazy::has_pending())
      redo.clear();
  }
  // Deferred flushing: the lines written back under the locks are flushed
  // now (before quiescence); attempt_end catches any other path.
  static void redo_released(TxThread &) {
    if constexpr (Options::kDeferredFlush)
      Lazy::finish();
  }
  static void redo_discard(TxThread &, Redo &redo) {
    Lazy::discard();
    redo.clear();
  }
};

template <class Self>
using PersistentLogging = PersistentLoggingT<Self, NaiveOptions>;
template <class Self> using GpLogging = PersistentLoggingT<Self, GpOptions>;
template <class Self> using IpLogging = PersistentLoggingT<Self, IpOptions>;

} // namespace ptm

#endif // PTM_LIBS_PERSISTENT_LOGGING_H
