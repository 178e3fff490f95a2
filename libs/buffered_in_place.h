//===- buffered_in_place.h - buffered durability for the eager cgl -*- C++ -*-//
//
// The write path of gp_cgl_eager and ip_cgl_eager under buffered durability
// (docs/durability.md, "In-place buffered commit"). The pool's address range
// is then a private DRAM copy of the file, so a store in place cannot reach
// persistent memory on its own and needs no log there: a write keeps the old
// bytes in the volatile undo log (for an abort) and notes the key of what it
// writes in the slot log index (tls_log_index, used here as a set: a chunk
// of the chunk space, else an 8-byte word, with its size as its record);
// reads are plain loads.
//
// The commit runs under the global lock, so no other transaction is between
// its writes and its commit: the current bytes of every noted chunk or word
// are this transaction's result over every earlier commit. They go to the
// slot's commit queue with the next sequence number
// (pool::commit_buffered_in_place), whole, and the persister writes them as
// it writes the lazy libraries' write sets. Per transaction: no clwb, no
// sfence, no entry in the slot; the persister's counts are those of
// docs/durability.md.
//
// A transaction may note any number of keys: the persister's record of a
// write set larger than its slot extends (docs/pool.md "Log extensions").
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_BUFFERED_IN_PLACE_H
#define PTM_LIBS_BUFFERED_IN_PLACE_H

#include "runtime/base/hot_cold.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/persistent_undo_log.h"
#include "runtime/persist/slot_log_index.h"
#include "runtime/pool/commit_queue.h"
#include "runtime/pool/thread_slot.h"

#include <cstring>

namespace ptm {

template <bool Coarse> struct BufferedInPlaceT {
  static constexpr uintptr_t kChunk = pool::kLogGranularity;

  // The keys an ordinary transaction's index is sized for (a larger write
  // set grows it; the persister's record extends, docs/pool.md "Log
  // extensions").
  static uint64_t max_keys(const pool::SlotHandle &s) {
    return s.slot_capacity / 4;
  }

  // The key of the last write that was in the set (0: none): consecutive
  // writes into one chunk or word (a loop over an array) skip the lookup.
  static inline thread_local uintptr_t last_key = 0;

  static void begin(TxThread &tx) {
    tx.undo.clear();
    tls_log_index.reset(max_keys(pool::tls_slot));
    last_key = 0;
  }

  template <class T>
  PTM_INLINE static void write(TxThread &tx, T *addr, T value) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    uintptr_t span;
    uintptr_t key = key_of(a, span);
    if (__builtin_expect(a + sizeof(T) > key + span, 0)) {
      note_range(a, sizeof(T)); // (straddles two keys)
    } else if (key != last_key) {
      if (__builtin_expect(tls_log_index.find(key) < 0, 0))
        note(key, span);
      last_key = key;
    }
    tx.undo.append_value(addr);
    memcpy(addr, &value, sizeof value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    if (n == 0)
      return;
    note_range(reinterpret_cast<uintptr_t>(tm), n);
    tx.undo.append_span(tm, n);
    memmove(tm, priv, n);
  }

  // Under the global lock.
  static void commit(TxThread &tx) {
    pool::commit_buffered_in_place(pool::tls_slot, tx, tls_log_index);
    tx.undo.clear();
  }

  static void rollback(TxThread &tx) {
    tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
    tls_log_index.reset(max_keys(pool::tls_slot));
    last_key = 0;
  }

private:
  // The key of the byte at A: its chunk in the chunk space, else its word;
  // SPAN: the bytes the key covers.
  PTM_INLINE static uintptr_t key_of(uintptr_t a, uintptr_t &span) {
    if constexpr (Coarse) {
      uintptr_t c = a & ~(kChunk - 1);
      if (in_chunk_space(c, kChunk)) {
        span = kChunk;
        return c;
      }
    }
    span = 8;
    return a & ~uintptr_t(7);
  }

  // KEY into the set, with its span as its record.
  static PTM_OUTLINE void note(uintptr_t key, uintptr_t span) {
    tls_log_index.insert(key, span); // (the index grows: no limit)
  }

  static PTM_OUTLINE void note_range(uintptr_t a, size_t n) {
    for (uintptr_t p = a, span; p < a + n; p += span) {
      uintptr_t key = key_of(p, span);
      if (tls_log_index.find(key) < 0)
        note(key, span);
      span -= p - key; // (to the key's end)
    }
  }
};

} // namespace ptm

#endif // PTM_LIBS_BUFFERED_IN_PLACE_H
