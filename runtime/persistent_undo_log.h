//===- persistent_undo_log.h - undo log in the thread's pool slot -*- C++
//-*-===//
//
// The eager side of Listing 1 (paper, Section III-A), on the thread's slot:
//
//   begin     status = undo-active | gen << 8; clwb; sfence
//   write     log_old(): one entry per 8-byte word touched, clwb each;
//             sfence; store in place; clwb the data (flush_range)
//   commit    (no entry: nothing, the status stays active, as in Listing 1)
//             sfence; status = idle | gen << 8; clwb; sfence
//   rollback  (memory already restored by the caller) clwb every logged
//             word; sfence; status = idle; clwb; sfence
//
// Per committed transaction with W single-word writes: 2W+2 clwb, W+3 sfence.
// Recovery (pool/recovery.cpp) restores the valid entries of the slot's
// generation newest first. A transaction that needs more entries than the
// slot holds is a fatal error naming the limit.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSISTENT_UNDO_LOG_H
#define PTM_RUNTIME_PERSISTENT_UNDO_LOG_H

#include "runtime/persist.h"
#include "runtime/pool/pool_format.h"
#include "runtime/pool/thread_slot.h"
#include "runtime/report.h"
#include "runtime/stats.h"
#include "runtime/tx_thread.h"

#include <cstdint>
#include <cstring>

namespace ptm {

[[noreturn]] __attribute__((noinline, cold)) inline void
slot_log_overflow(const pool::SlotHandle &s) {
  TxThread &tx = this_thread();
  fatal("the transaction begun at %s needs more than %llu log entries, the "
        "capacity of a thread slot of this pool (slot size %llu bytes, 32 "
        "bytes per logged word); create the pool with larger slots "
        "(ptm-pool create --slot-size)",
        tx.where ? tx.where : "?", (unsigned long long)s.capacity,
        (unsigned long long)(s.capacity * sizeof(pool::LogEntry) +
                             sizeof(pool::SlotHeader)));
}

// Byte mask of [lo, hi) within the word at WORD.
__attribute__((always_inline)) inline uint8_t
word_mask(uintptr_t word, uintptr_t lo, uintptr_t hi) {
  unsigned first = lo > word ? unsigned(lo - word) : 0;
  unsigned last = hi < word + 8 ? unsigned(hi - word) : 8;
  return uint8_t(((1u << last) - 1) & ~((1u << first) - 1));
}

struct PersistentUndoLog {
  static void begin(pool::SlotHandle &s) {
    ++s.gen;
    s.count = 0;
    __atomic_store_n(&s.hdr->status,
                     pool::slot_status(pool::kUndoActive, s.gen),
                     __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->status);
    persist::sfence();
  }

  // Logs the current bytes of [addr, addr + n) and writes the entries back;
  // the caller fences before it stores.
  __attribute__((always_inline)) static void
  log_old(pool::SlotHandle &s, const void *addr, size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
      if (__builtin_expect(s.count == s.capacity, 0))
        slot_log_overflow(s);
      pool::LogEntry &e = s.entries[s.count++];
      uint64_t old;
      memcpy(&old, reinterpret_cast<const void *>(word), 8);
      uint64_t meta = pool::entry_meta(word_mask(word, lo, hi), s.gen);
      e.addr = word;
      e.meta = meta;
      e.data = old;
      e.check = pool::entry_check(word, meta, old);
      persist::clwb(&e);
    }
  }

  static void commit(pool::SlotHandle &s) {
    stat_add(this_thread().stats->log_entries, s.count);
    if (s.count == 0)
      return;
    persist::sfence();
    mark_idle(s);
  }

  static void rollback(pool::SlotHandle &s) {
    stat_add(this_thread().stats->log_entries, s.count);
    for (uint64_t i = s.count; i-- > 0;)
      persist::clwb(reinterpret_cast<const void *>(s.entries[i].addr));
    persist::sfence();
    mark_idle(s);
    s.count = 0;
  }

private:
  static void mark_idle(pool::SlotHandle &s) {
    __atomic_store_n(&s.hdr->status, pool::slot_status(pool::kIdle, s.gen),
                     __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->status);
    persist::sfence();
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_PERSISTENT_UNDO_LOG_H
