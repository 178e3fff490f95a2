//===- romulus_policy.h - Romulus's twin-copy protocol as a peer -*- C++
//-*-===//
//
// Not a ptm library: a peer for the benchmarks (bench/<bench>.romulus),
// standing for the hand-annotated persistent TMs of the literature that keep
// two copies of the data (Romulus, Correia, Felber and Ramalhete, SPAA 2018:
// "main", which the program reads and writes in place, and "back", the
// consistent copy recovery restores from). It pays Romulus's costs on the
// same programs the ptm libraries run, compiled by the same plugin: reads
// are plain loads (inline under LTO, as a hand-annotated load would be), a
// write stores in place and notes its line, and a writing transaction runs
// this protocol around its writes:
//
//   first write   state = MUTATING; clwb state; sfence           (fence 1)
//   (to the pool)
//   commit        clwb every line of main it wrote; sfence        (fence 2)
//                 state = COPYING; clwb state; sfence             (fence 3)
//                   (durable from here: recovery would finish the copy)
//                 copy those lines main -> back; clwb each; sfence (fence 4)
//                 state = IDLE; clwb state (ordered by the next fence 1)
//
// so 4 sfence and 2L + 3 clwb for L distinct lines written, whatever L; a
// transaction that writes no pool memory issues none (its writes elsewhere,
// e.g. to DRAM, still take the writer lock: they are shared too). Concurrency
// as in Romulus: one writer at a time (its reader-writer lock; the flat
// combining that batches writers in the original is not modelled), read-only
// transactions in parallel with each other. A transaction starts as a
// reader; its first write takes the writer lock and waits for the other
// readers to leave, or restarts if another writer holds it (the next
// attempt begins as the writer: libs/global_rw_lock.h).
//
// What it does not do: recovery. The back copy is an anonymous mapping
// beside the pool (zero pages until lines are copied into it), so nothing
// here survives a crash; it measures the protocol's cost only
// (scripts/peers.py; docs/benchmarks.md, "Peers"). Blocks the transaction
// allocated are copied whole (they may hold plain stores, e.g. calloc's
// zeroing); the pool's allocator writes its metadata through write(), as
// Romulus's in-region allocator does through its annotated stores.
// ptm_romulus_back (romulus.cpp) lets a test compare the two copies.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_ROMULUS_POLICY_H
#define PTM_BENCH_ROMULUS_POLICY_H

#include "libs/global_rw_lock.h"
#include "libs/persistent_options.h"
#include "libs/persistent_policy_base.h"
#include "libs/reads_in_place.h"
#include "runtime/base/grow_buffer.h"
#include "runtime/base/report.h"
#include "runtime/persist/persist.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <sys/mman.h>

namespace ptm {

template <class Self, class Options>
struct RomulusT : ReadsInPlace<PersistentPolicyBase<Self, Options>> {
  using Base = PersistentPolicyBase<Self, Options>;
  using Base::apply_frees;
  static constexpr uint64_t kIdle = 0, kMutating = 1, kCopying = 2;

  // The back copy: [back, back + size) mirrors [main, main + size), the
  // open pool; the state word sits in the line before it.
  static inline char *main_base = nullptr;
  static inline char *back = nullptr;
  static inline size_t size = 0;
  static inline std::atomic<uint64_t> *state = nullptr;

  static inline GlobalRwLock lock;
  static inline thread_local bool writing = false;
  static inline thread_local GrowBuffer<uintptr_t> lines; // main, with repeats

  static void begin(TxThread &) {
    pool::enter_tx();
    if (lock.arrive()) // (a restart after another writer held the lock)
      become_writer();
  }

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    if (__builtin_expect(!writing, 0))
      start_writing(tx);
    note(addr, sizeof value); // (MUTATING is durable before the store)
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
    if (lines.size == 0) { // wrote no pool memory: nothing to make durable
      finish_writing(tx);
      return true;
    }
    uintptr_t *end = flush_main();
    set_state(kCopying);
    persist::sfence();
    for (uintptr_t *l = lines.data; l != end; ++l) {
      char *b = back + (*l - reinterpret_cast<uintptr_t>(main_base));
      memcpy(b, reinterpret_cast<const void *>(*l), persist::kLineSize);
      persist::clwb(b);
    }
    persist::sfence();
    set_state(kIdle);
    finish_writing(tx);
    return true;
  }

  // The undo log restores main; recovery would copy back over it until the
  // restored lines are durable, so they are flushed before the state is
  // IDLE again.
  static void rollback(TxThread &tx) {
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
    if (!writing) {
      lock.read_unlock();
      pool::leave_tx(pool::tls_slot);
      return;
    }
    if (lines.size == 0)
      return finish_writing(tx);
    flush_main();
    set_state(kIdle);
    persist::sfence();
    finish_writing(tx);
  }

  // The back copy of main's ADDR (the open pool), or null.
  static const void *back_of(const void *addr) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    auto m = reinterpret_cast<uintptr_t>(main_base);
    if (!back || a < m || a - m >= size)
      return nullptr;
    return back + (a - m);
  }

private:
  static void note(const void *addr, size_t n) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (a - reinterpret_cast<uintptr_t>(main_base) >= size)
      return; // not pool memory: nothing to copy (undo-logged for restart)
    if (__builtin_expect(lines.size == 0, 0))
      start_mutating();
    for (uintptr_t l = a & ~uintptr_t(persist::kLineSize - 1); l < a + n;
         l += persist::kLineSize)
      if (lines.size == 0 || lines[lines.size - 1] != l)
        lines.push_back(l);
  }

  // clwb of each distinct line of main the attempt wrote, and an sfence;
  // returns the end of those lines (from lines.data, sorted).
  static uintptr_t *flush_main() {
    std::sort(lines.data, lines.data + lines.size);
    uintptr_t *end = std::unique(lines.data, lines.data + lines.size);
    for (uintptr_t *l = lines.data; l != end; ++l)
      persist::clwb(reinterpret_cast<const void *>(*l));
    persist::sfence();
    return end;
  }

  static void set_state(uint64_t s) {
    state->store(s, std::memory_order_relaxed);
    persist::clwb(state);
  }

  __attribute__((noinline, cold)) static void start_writing(TxThread &tx) {
    if (!lock.try_write())
      tx_conflict<Self>(tx, AbortCause::WriteConflict);
    become_writer();
  }

  // Under the writer token.
  static void become_writer() {
    lock.drain(); // (it writes in place)
    writing = true;
    map_back();
  }

  // The first line of pool memory the transaction writes.
  __attribute__((noinline, cold)) static void start_mutating() {
    set_state(kMutating);
    persist::sfence();
  }

  static void finish_writing(TxThread &tx) {
    lines.clear();
    tx.undo.clear();
    writing = false;
    lock.write_unlock();
    pool::leave_tx(pool::tls_slot);
  }

  // Under the writer lock: a back copy for the open pool (a pool opened at
  // another address or size gets a new one). It starts as zero pages, not
  // as a copy of the pool (which would touch every page of a 1 GiB pool for
  // nothing): a line matches main once a transaction has written it.
  static void map_back() {
    char *base = pool::open_view.base;
    size_t n = pool::open_view.size();
    if (back && main_base == base && size == n)
      return;
    if (back)
      munmap(back - persist::kLineSize, size + persist::kLineSize);
    void *p = mmap(nullptr, n + persist::kLineSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      fatal("romulus: cannot map a back copy of %zu bytes", n);
    state = static_cast<std::atomic<uint64_t> *>(p);
    back = static_cast<char *>(p) + persist::kLineSize;
    main_base = base;
    size = n;
  }
};

struct RomulusPolicy : RomulusT<RomulusPolicy, IpOptions> {
  // The last-allocation tracking of the IP model is not Romulus's: every
  // write into a new block goes through write() (and the block is copied
  // whole at commit anyway).
  static constexpr bool kLastAllocTracking = false;
};

} // namespace ptm

#endif // PTM_BENCH_ROMULUS_POLICY_H
