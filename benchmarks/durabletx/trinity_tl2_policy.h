//===- trinity_tl2_policy.h - Trinity-VR-TL2 as a peer ----------*- C++ -*-===//
//
// Not a ptm library: the policy of a peer of the benchmarks,
// bench/<bench>.trinity_tl2, standing for Trinity-VR-TL2 (Ramalhete, Correia
// and Felber, PPoPP 2021), a hand-annotated persistent TM with a volatile
// replica and TL2-style concurrency. It runs the same programs as the ptm
// libraries, compiled by the same plugin, with the original's costs:
//
//   begin    rclock = the global clock (version_locks.h)
//   read     a load of the replica (the open pool), then its lock checked:
//            free with a version <= rclock, or held by this transaction,
//            or the attempt aborts (post-validation); the lock is added to
//            the read set
//   write    the chunk's lock taken at once (encounter time: a lock held by
//            another or newer than rclock aborts the attempt), then a store
//            in place into the replica, the chunk noted (and the old value
//            in the volatile undo log, which an abort restores)
//   commit   read-only (no lock held): nothing more, no fence. Otherwise,
//            a full fence, the read set validated (or abort), then Trinity
//            (trinity_commit.h) with the thread's own sequence word:
//              each written chunk's line: back = main, seq, main, clwb
//              sfence                                            (fence 1)
//              clock + 1 (the new version)
//              sequence word + 1; clwb; sfence                   (fence 2)
//            and the locks released with the new version:
//            C + 1 clwb and 2 sfence for C distinct chunks written
//   abort    the undo log restores the replica; the locks are released
//            with a new clock value (readers may have seen the values)
//
// The original lets the clock's fetch-and-add order the line flushes (a
// locked instruction orders clwb on x86) and counts it as fence 1; here
// fence 1 is an sfence before it, so that the runtime's statistics count
// both fences. The original knows from its API which transactions are
// read-only and records no read set for them; a ptm transaction does not
// know, so every read records its lock (one store; the read-only commit
// never looks at it). Restarted attempts back off for a random time that
// grows with the attempt, as the original.
//
// What it does not do: recovery (persistent_copy.h). Blocks the transaction
// allocated are locked and noted whole at commit (they may hold plain
// stores); the pool's allocator writes its metadata through write().
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_DURABLETX_TRINITY_TL2_POLICY_H
#define PTM_BENCH_DURABLETX_TRINITY_TL2_POLICY_H

#include "benchmarks/durabletx/persistent_copy.h"
#include "benchmarks/durabletx/trinity_commit.h"
#include "benchmarks/durabletx/version_locks.h"
#include "libs/persistent_options.h"
#include "libs/persistent_policy_base.h"
#include "runtime/base/grow_buffer.h"

#include <atomic>
#include <cstring>

namespace ptm {

template <class Self, class Options>
struct TrinityTl2T : PersistentPolicyBase<Self, Options> {
  using Base = PersistentPolicyBase<Self, Options>;
  using Base::apply_frees;
  using Copy = TrinityCommit::Copy;
  using Lock = std::atomic<uint64_t>;
  static constexpr uint64_t kLocked = VersionLocks::kLocked;

  struct Attempt {
    uint64_t rclock = 0;
    uint64_t owner = 0; // kLocked | id, id in [1, kSeqWords)
    uint64_t rng = 0;
    GrowBuffer<Lock *> reads;  // read set (consecutive repeats dropped)
    GrowBuffer<Lock *> held;   // write locks taken
    GrowBuffer<size_t> chunks; // chunks of the pool written (repeats)
  };
  static inline thread_local Attempt at;
  static inline std::atomic<uint64_t> next_id{0};

  static void begin(TxThread &tx) {
    pool::enter_tx();
    Copy::ensure();
    if (__builtin_expect(at.owner == 0, 0)) {
      at.owner = kLocked | (1 + next_id.fetch_add(1) % (Copy::kSeqWords - 1));
      at.rng = at.owner;
    }
    if (tx.attempt > 1)
      back_off(tx.attempt);
    at.rclock = VersionLocks::clock.load(std::memory_order_acquire);
  }

  template <class T>
  __attribute__((always_inline)) static T read(TxThread &tx, const T *addr) {
    T value;
    memcpy(&value, addr, sizeof value);
    std::atomic_signal_fence(std::memory_order_seq_cst); // (x86: in order)
    check(tx, addr, sizeof value);
    return value;
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (n == 0)
      return;
    memcpy(priv, tm, n);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    check(tx, tm, n);
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    lock(tx, addr, sizeof value);
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (n == 0)
      return;
    lock(tx, tm, n);
    tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
  }

  static bool commit(TxThread &tx) {
    apply_frees(tx); // (writes through write())
    if (at.held.size == 0) {
      end_attempt(tx);
      return true;
    }
    for (size_t i = 0; i < tx.allocs.size; ++i) {
      void *p = tx.allocs[i].ptr;
      if (pool::pool_heap && pool::pool_heap->contains(p))
        lock(tx, p, tx.allocs[i].size);
    }
    std::atomic_thread_fence(std::memory_order_seq_cst);
    for (size_t i = 0; i < at.reads.size; ++i)
      if (!valid(at.reads[i]->load(std::memory_order_acquire)))
        tx_conflict<Self>(tx, AbortCause::Validation);
    uint64_t version;
    if (at.chunks.size != 0) {
      uint64_t *word = Copy::seq_word(at.owner & ~kLocked);
      TrinityCommit::write_lines(at.chunks.data, at.chunks.size,
                                 ((at.owner & ~kLocked) << 56) | (*word + 1));
      persist::sfence();
      version = VersionLocks::clock.fetch_add(1) + 1;
      TrinityCommit::advance(word);
    } else {
      version = VersionLocks::clock.fetch_add(1) + 1; // (DRAM writes only)
    }
    release(version);
    end_attempt(tx);
    return true;
  }

  static void rollback(TxThread &tx) {
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
    if (at.held.size != 0)
      release(VersionLocks::clock.fetch_add(1) + 1);
    end_attempt(tx);
  }

private:
  static bool valid(uint64_t word) {
    return word == at.owner || (!(word & kLocked) && word <= at.rclock);
  }

  // The locks of the chunks of [addr, addr + n), in order, each once.
  template <class F>
  __attribute__((always_inline)) static void for_locks(const void *addr,
                                                       size_t n, F &&f) {
    Lock *first = VersionLocks::of(addr, Copy::base);
    Lock *last =
        VersionLocks::of(static_cast<const char *>(addr) + n - 1, Copy::base);
    f(first);
    if (__builtin_expect(first != last, 0))
      for_more_locks(addr, n, first, f);
  }
  template <class F>
  __attribute__((noinline)) static void
  for_more_locks(const void *addr, size_t n, Lock *prev, F &f) {
    auto *p = static_cast<const char *>(addr);
    for (size_t i = kChunkBytes; i < n + kChunkBytes; i += kChunkBytes) {
      Lock *l = VersionLocks::of(p + (i < n ? i : n - 1), Copy::base);
      if (l != prev)
        f(l);
      prev = l;
    }
  }

  __attribute__((always_inline)) static void check(TxThread &tx,
                                                   const void *addr, size_t n) {
    for_locks(addr, n, [&](Lock *l) {
      if (__builtin_expect(!valid(l->load(std::memory_order_acquire)), 0))
        tx_conflict<Self>(tx, AbortCause::ReadConflict);
      if (at.reads.size == 0 || at.reads[at.reads.size - 1] != l)
        at.reads.push_back(l);
    });
  }

  __attribute__((always_inline)) static void lock(TxThread &tx,
                                                  const void *addr, size_t n) {
    for_locks(addr, n, [&](Lock *l) {
      uint64_t word = l->load(std::memory_order_acquire);
      if (word == at.owner)
        return;
      if ((word & kLocked) || word > at.rclock ||
          !l->compare_exchange_strong(word, at.owner))
        tx_conflict<Self>(tx, AbortCause::WriteConflict);
      at.held.push_back(l);
    });
    if (Copy::in_replica(addr)) {
      size_t first = Copy::chunk_of(addr);
      size_t last = Copy::chunk_of(static_cast<const char *>(addr) + n - 1);
      for (size_t c = first; c <= last; ++c)
        if (at.chunks.size == 0 || at.chunks[at.chunks.size - 1] != c)
          at.chunks.push_back(c);
    }
  }

  static void release(uint64_t version) {
    for (size_t i = 0; i < at.held.size; ++i)
      at.held[i]->store(version, std::memory_order_release);
  }

  static void end_attempt(TxThread &tx) {
    tx.undo.clear();
    at.reads.clear();
    at.held.clear();
    at.chunks.clear();
    pool::leave_tx(pool::tls_slot);
  }

  // A random wait in [1, 16 * min(attempt, 1024)] pauses.
  __attribute__((noinline, cold)) static void back_off(uint32_t attempt) {
    at.rng = at.rng * 6364136223846793005u + 1442695040888963407u;
    uint64_t bound = 16 * (attempt < 1024 ? attempt : 1024);
    for (uint64_t i = (at.rng >> 33) % bound + 1; i != 0; --i)
      __builtin_ia32_pause();
  }
};

} // namespace ptm

#endif // PTM_BENCH_DURABLETX_TRINITY_TL2_POLICY_H
