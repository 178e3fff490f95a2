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
// Sealed log (gp_/ip_, activate_on_first_entry): the status goes active with
// the first entry, behind its fence: 2W+2 clwb, W+2 sfence; read-only 0, 0.
//
// Coarse-grained logging (paper IV-B), log_chunks(): a write into the chunk
// space (slot_log_index.h) logs each G-byte chunk it touches once per
// transaction: a chunk entry <chunk address, G old bytes> (pool_format.h),
// written back line by line (1 clwb for G <= 32, 2 for G = 64), preceded by a
// padding record (+1 clwb) when the log is at an odd record; a chunk already
// logged is found in the index (tls_log_index) and costs nothing more. The
// caller fences only when something was logged: W writes into C distinct
// chunks cost C*L + W + 2 clwb and C + 3 sfence (L lines per chunk entry).
// Other addresses get word entries as above.
// Recovery (pool/recovery.cpp) restores the valid entries of the slot's
// generation newest first. A transaction that needs more entries than the
// slot holds moves its log to a log extension (log_extension.h), released
// once the slot is idle again.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSISTENT_UNDO_LOG_H
#define PTM_RUNTIME_PERSISTENT_UNDO_LOG_H

#include "runtime/base/report.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/log_extension.h"
#include "runtime/persist/log_ring.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/slot_log_index.h"
#include "runtime/pool/pool_format.h"
#include "runtime/pool/thread_slot.h"

#include <cstdint>
#include <cstring>

namespace ptm {

// Byte mask of [lo, hi) within the word at WORD.
__attribute__((always_inline)) inline uint8_t
word_mask(uintptr_t word, uintptr_t lo, uintptr_t hi) {
  unsigned first = lo > word ? unsigned(lo - word) : 0;
  unsigned last = hi < word + 8 ? unsigned(hi - word) : 8;
  return uint8_t(((1u << last) - 1) & ~((1u << first) - 1));
}

// The log has no room for COUNT more records: a log ring's record that is
// not open yet opens (LogRing::open); one that is takes the whole slot
// (LogRing::spill); a record larger than the slot moves to a log extension
// (log_extension.h).
__attribute__((noinline)) inline void slot_log_full(pool::SlotHandle &s,
                                                    uint64_t count) {
  if (s.capacity == 0) {
    LogRing::open(s);
    if (count <= s.capacity)
      return;
  }
  if (s.capacity < s.slot_capacity) {
    LogRing::spill(s);
    if (s.count + count <= s.capacity)
      return;
  }
  LogExtension::grow(s, count);
}

// The slot's next COUNT records, checked against its capacity.
__attribute__((always_inline)) inline pool::LogEntry &
slot_records(pool::SlotHandle &s, uint64_t count) {
  if (__builtin_expect(s.count + count > s.capacity, 0))
    slot_log_full(s, count);
  pool::LogEntry &e = s.entries[s.count];
  s.count += count;
  return e;
}

// A padding record if the log is at an odd record (chunk entries start on a
// cache line). Returns it, or nullptr.
inline pool::LogEntry *pad_to_line(pool::SlotHandle &s) {
  if ((s.count & 1) == 0)
    return nullptr;
  pool::LogEntry &p = slot_records(s, 1);
  p.addr = 0;
  p.meta = pool::entry_meta(0, s.gen);
  p.data = 0;
  p.check = pool::entry_check(0, p.meta, 0);
  return &p;
}

// A new chunk entry for the chunk at C (header fields but the check; the
// caller fills the bytes), indexed.
__attribute__((always_inline)) inline pool::LogEntry &
new_chunk_entry(pool::SlotHandle &s, uintptr_t c) {
  pool::LogEntry &e =
      slot_records(s, pool::chunk_records(pool::kLogGranularity));
  e.addr = c;
  e.meta = pool::entry_meta(0, s.gen);
  e.data = pool::kLogGranularity;
  tls_log_index.insert(c, uint64_t(&e - s.entries), true);
  ++s.logged;
  return e;
}

struct PersistentUndoLog {
  static constexpr uintptr_t kChunk = pool::kLogGranularity;

  // Listing 1 Begin.Eager: a new generation, status undo-active, clwb,
  // sfence.
  static void begin(pool::SlotHandle &s) {
    reset(s);
    activate(s);
    persist::sfence();
  }

  // A new generation with nothing logged and the status left as it is.
  static void reset(pool::SlotHandle &s) {
    if (__builtin_expect(s.ext != nullptr, 0)) // (an attempt not rolled back)
      LogExtension::release(s);
    s.gen += pool::kGenStride; // (pool_format.h)
    s.count = 0;
    s.logged = 0;
  }

  // Sealed log (gp_/ip_): the status goes undo-active with the first entry,
  // flushed with it behind the fence that precedes the first store (the
  // entries validate themselves; a crash inside that fence stored nothing
  // in place). A transaction that writes nothing touches the slot not at
  // all. Call before logging.
  __attribute__((always_inline)) static void
  activate_on_first_entry(pool::SlotHandle &s) {
    if (__builtin_expect(s.count == 0, 0))
      activate(s);
  }

  // Logs the current bytes of [addr, addr + n) and writes the entries back;
  // the caller fences before it stores.
  __attribute__((always_inline)) static void
  log_old(pool::SlotHandle &s, const void *addr, size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
      if (__builtin_expect(s.count == s.capacity, 0))
        slot_log_full(s, 1);
      pool::LogEntry &e = s.entries[s.count++];
      ++s.logged;
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

  // Coarse-grained logging: a new transaction's chunk index.
  static void begin_coarse(pool::SlotHandle &s) {
    tls_log_index.reset(s.capacity);
  }

  // Logs the chunks of [addr, addr + n) in the chunk space not logged yet
  // (and word entries for the rest), writes them back; returns true if
  // anything was logged (then the caller fences before it stores).
  static bool log_chunks(pool::SlotHandle &s, const void *addr, size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    bool logged = false;
    for (uintptr_t p = lo; p < hi;) {
      uintptr_t c = p & ~(kChunk - 1);
      if (!in_chunk_space(c, kChunk)) {
        uintptr_t next = (p & ~uintptr_t(7)) + 8;
        uintptr_t end = next < hi ? next : hi;
        log_old(s, reinterpret_cast<const void *>(p), end - p);
        logged = true;
        p = end;
        continue;
      }
      p = c + kChunk;
      if (tls_log_index.find(c) >= 0)
        continue; // this transaction logged the chunk already
      if (pool::LogEntry *pad = pad_to_line(s))
        persist::clwb(pad);
      pool::LogEntry &e = new_chunk_entry(s, c);
      memcpy(pool::chunk_bytes(e), reinterpret_cast<const void *>(c), kChunk);
      e.check = pool::chunk_check(c, e.meta, kChunk, pool::chunk_bytes(e));
      persist::flush_range(&e, kChunk + sizeof e);
      logged = true;
    }
    return logged;
  }

  static void commit(pool::SlotHandle &s) {
    stat_add(this_thread().stats->log_entries, s.logged);
    if (s.count == 0)
      return;
    persist::sfence();
    mark_idle(s);
  }

  // SEALED: the status went active with the first entry (nothing logged:
  // nothing to do).
  static void rollback(pool::SlotHandle &s, bool sealed) {
    stat_add(this_thread().stats->log_entries, s.logged);
    if (sealed && s.count == 0)
      return;
    for (uint64_t i = 0; i < s.count; i += pool::entry_records(s.entries[i]))
      if (pool::entry_kind(s.entries[i]) != pool::kPadEntry)
        persist::clwb_data(reinterpret_cast<const void *>(s.entries[i].addr));
    persist::sfence();
    mark_idle(s);
    s.count = 0;
  }

private:
  static void activate(pool::SlotHandle &s) {
    __atomic_store_n(&s.hdr->status,
                     pool::slot_status(pool::kUndoActive, s.gen),
                     __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->status);
  }

  static void mark_idle(pool::SlotHandle &s) {
    __atomic_store_n(&s.hdr->status, pool::slot_status(pool::kIdle, s.gen),
                     __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->status);
    persist::sfence();
    if (__builtin_expect(s.ext != nullptr, 0))
      LogExtension::release(s);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_PERSISTENT_UNDO_LOG_H
