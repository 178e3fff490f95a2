//===- flat_combining_policy.h - Trinity/Quadra, FC forms -------*- C++ -*-===//
//
// Not a ptm library: the policy of two peers of the benchmarks,
// bench/<bench>.trinity_fc and bench/<bench>.quadra_fc, standing for
// Trinity-VR-FC and Quadra-VR-FC (Ramalhete, Correia and Felber, PPoPP
// 2021), hand-annotated persistent TMs with a volatile replica. They run the
// same programs as the ptm libraries, compiled by the same plugin:
//
//   read     a plain load of the replica (the open pool; inline under LTO,
//            as a hand-annotated load of the originals)
//   write    a store in place into the replica, its chunk noted (and the
//            old value in the volatile undo log a restart needs)
//   commit   the batch's chunks made durable by COMMIT, the protocol:
//              TrinityCommit (trinity_commit.h): C + 1 clwb, 2 sfence
//              QuadraCommit  (quadra_commit.h):  C clwb, 1 sfence
//            for the C distinct chunks the batch wrote, once per batch
//
// Concurrency is flat combining (combining_lock.h): readers in parallel,
// writers one at a time, and the writers that queued while a batch was
// open committed together behind one set of fences by the last of them. A
// transaction starts as a reader; its first write takes the writer token or
// restarts it (the restarted attempt queues for the token). A transaction
// alone issues the formula above; a batch of k writers issues it once for
// the union of their chunks. A transaction that wrote no pool memory issues
// nothing (its writes elsewhere, e.g. to DRAM, still need the token).
//
// What it does not do: recovery, as the Romulus peer (persistent_copy.h).
// Blocks the transaction allocated are noted whole (they may hold plain
// stores, e.g. calloc's zeroing); the pool's allocator writes its metadata
// through write(), as the originals' allocator through annotated stores.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_DURABLETX_FLAT_COMBINING_POLICY_H
#define PTM_BENCH_DURABLETX_FLAT_COMBINING_POLICY_H

#include "benchmarks/durabletx/combining_lock.h"
#include "benchmarks/durabletx/persistent_copy.h"
#include "libs/persistent_options.h"
#include "libs/persistent_policy_base.h"
#include "libs/reads_in_place.h"
#include "runtime/base/grow_buffer.h"

#include <cstring>

namespace ptm {

template <class Self, class Options, class Commit>
struct FlatCombiningT : ReadsInPlace<PersistentPolicyBase<Self, Options>> {
  using Base = PersistentPolicyBase<Self, Options>;
  using Base::apply_frees;
  using Copy = typename Commit::Copy;

  static inline CombiningLock lock;
  // The chunks the open batch wrote, with repeats (the token's holder's).
  static inline GrowBuffer<size_t> batch_chunks;
  static inline thread_local bool writing = false;
  static inline thread_local size_t my_first_chunk = 0; // in batch_chunks

  static void begin(TxThread &) {
    pool::enter_tx();
    Copy::ensure();
    if (lock.arrive()) // (queued behind an open batch, or after a restart)
      become_writer();
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (__builtin_expect(!writing, 0))
      start_writing(tx);
    note(addr, sizeof value);
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (!writing)
      start_writing(tx);
    note(tm, n);
    tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
  }

  static bool commit(TxThread &tx) {
    apply_frees(tx); // (writes through write(): may start writing)
    if (!writing) {
      tx.undo.clear();
      lock.read_unlock();
      pool::leave_tx(pool::tls_slot);
      return true;
    }
    for (size_t i = 0; i < tx.allocs.size; ++i) {
      void *p = tx.allocs[i].ptr;
      if (pool::pool_heap && pool::pool_heap->contains(p))
        note(p, tx.allocs[i].size);
    }
    finish_writing(tx);
    return true;
  }

  static void rollback(TxThread &tx) {
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
    if (!writing) {
      lock.read_unlock();
      pool::leave_tx(pool::tls_slot);
      return;
    }
    batch_chunks.size = my_first_chunk; // (the replica is restored)
    finish_writing(tx);
  }

private:
  static void note(const void *addr, size_t n) {
    if (!Copy::in_replica(addr))
      return; // not pool memory: nothing to persist
    size_t first = Copy::chunk_of(addr);
    size_t last = Copy::chunk_of(static_cast<const char *>(addr) + n - 1);
    for (size_t c = first; c <= last; ++c)
      if (batch_chunks.size == 0 || batch_chunks[batch_chunks.size - 1] != c)
        batch_chunks.push_back(c);
  }

  __attribute__((noinline, cold)) static void start_writing(TxThread &tx) {
    if (!lock.try_write())
      tx_conflict<Self>(tx, AbortCause::WriteConflict);
    become_writer();
  }

  // Under the token, the batch open.
  static void become_writer() {
    writing = true;
    my_first_chunk = batch_chunks.size;
  }

  // The holder's transaction is over: the next queued writer joins the
  // batch, or the batch is made durable now.
  static void finish_writing(TxThread &tx) {
    tx.undo.clear();
    writing = false;
    uint64_t mine = lock.batch();
    if (lock.pass_on()) {
      lock.wait_durable(mine);
    } else {
      if (batch_chunks.size != 0)
        Commit::commit(batch_chunks.data, batch_chunks.size);
      batch_chunks.clear();
      lock.close_batch();
    }
    pool::leave_tx(pool::tls_slot);
  }
};

} // namespace ptm

#endif // PTM_BENCH_DURABLETX_FLAT_COMBINING_POLICY_H
