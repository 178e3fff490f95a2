//===- persistent_redo_log.h - redo log in the thread's pool slot -*- C++
//-*-===//
//
// The lazy side of Listing 1 (paper, Section III-A), on the thread's slot.
// A write buffers its bytes in the slot's entries (one per 8-byte word, with
// a byte mask; a second write of the same word merges into its entry); a
// volatile per-thread hash index finds a word's entry, so reads see the
// transaction's own writes. Nothing is flushed before commit:
//
//   commit   clwb every entry; sfence;
//            redo_count, commit_order, then status = redo-committed | gen;
//            clwb (one line); sfence;
//            write back every entry (masked), clwb each word; sfence;
//            status = idle | gen; clwb; sfence
//
// (The sealed log of the gp_/ip_ libraries drops the first sfence and
// says redo-sealed: see publish.) Entries are checked (pool_format.h) only
// once committed: publish computes every entry's check before it flushes
// it, so writes just fill entries.
// Per committed transaction with W distinct words of the pool's data: 2W+2
// clwb and 4 sfence; a read-only transaction flushes and fences nothing, and
// neither does one that wrote only outside the pool: those words' entries
// are kept out of the slot (outside_entries.h) and written back with the
// rest, never flushed. The slot's status line
// is written count and order first, status last: stores to one line reach
// memory in order (x86-TSO), so a durable "committed" implies its count.
//
// Coarse-grained logging (paper IV-B; the COARSE template argument of the
// read side, write_coarse for writes): in the chunk space (slot_log_index.h)
// an entry is a whole G-byte chunk without a byte mask. The first write to a
// chunk fills the entry with the chunk's G bytes (FILL: the algorithm's own
// read barrier, so they are consistent and validated like any read; not
// needed when the write covers the chunk), then applies the write; later
// writes and reads copy straight into / out of the entry. The entry's check
// is computed at commit. Commit is the same sequence: C chunks cost C*L
// (entry lines: 1 for G <= 32, 2 for G = 64) + C (data lines) + 2 clwb and 4
// sfence; the write-back stores whole chunks. Other addresses keep word
// entries.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSISTENT_REDO_LOG_H
#define PTM_RUNTIME_PERSISTENT_REDO_LOG_H

#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/log_ring.h"
#include "runtime/persist/log_stage.h"
#include "runtime/persist/outside_entries.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/persistent_undo_log.h"
#include "runtime/persist/slot_log_index.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/pool_format.h"
#include "runtime/pool/thread_slot.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ptm {

struct PersistentRedoLog {
  static constexpr uintptr_t kChunk = pool::kLogGranularity;

  // STAGE: the records are built in the thread's stage (log_stage.h).
  // COARSE: coarse-grained logging (chunk entries in the chunk space), whose
  // barriers test the index's summary by chunk (slot_log_index.h).
  template <bool Stage = false, bool Coarse = false>
  static void begin(pool::SlotHandle &s) {
    tls_log_index.set_summary_grain(Coarse ? kChunk : 8);
    if (__builtin_expect(s.ext != nullptr, 0)) // (an attempt not discarded)
      LogExtension::release(s);
    if constexpr (Stage)
      if (__builtin_expect(s.stage == nullptr, 0))
        LogStage::attach(s);
    s.gen += pool::kGenStride; // (pool_format.h)
    s.count = 0;
    s.logged = 0;
    tls_outside.count = 0;
    tls_log_index.reset(2 * s.capacity);
  }

  // Log ring (log_ring.h): the same, but the record opens at its first
  // entry (LogRing::open, in the slot's next part): until then its capacity
  // is 0, so the first entry takes the slow path of slot_records /
  // entry_for. A transaction that writes nothing touches neither the ring
  // nor the generation, and leaves nothing for the next begin to reset.
  template <bool Stage = false, bool Coarse = false>
  static void begin_ring(pool::SlotHandle &s) {
    tls_log_index.set_summary_grain(Coarse ? kChunk : 8);
    if (__builtin_expect(s.ext != nullptr, 0)) // (an attempt not discarded)
      LogExtension::release(s);
    if constexpr (Stage)
      if (__builtin_expect(s.stage == nullptr, 0))
        LogStage::attach(s);
    // (no record opened, no entry outside the pool, no key since the last
    // reset)
    if (s.capacity == 0 && tls_outside.count == 0 && tls_log_index.nkeys == 0)
      return;
    s.count = 0;
    s.logged = 0;
    s.capacity = 0;
    tls_outside.count = 0;
    tls_log_index.reset(2 * s.slot_capacity);
  }

  // The running attempt has entries (in its record or outside the pool):
  // the index has keys (every entry has one; a pad only precedes a chunk
  // entry; the index is reset at the next begin after a commit or a
  // rollback, and no barrier runs in between).
  __attribute__((always_inline)) static bool
  has_entries(const pool::SlotHandle &) {
    return tls_log_index.nkeys != 0;
  }

  // The entry of record R of the slot log index: in the record, or outside
  // it (outside_entries.h).
  __attribute__((always_inline)) static pool::LogEntry &
  entry_at(const pool::SlotHandle &s, int64_t r) {
    if (__builtin_expect(uint64_t(r) & OutsideEntries::kOutsideRecord, 0))
      return tls_outside.at(uint64_t(r));
    return s.entries[r];
  }

  static void discard(pool::SlotHandle &s) {
    if (s.logged != 0) // (a read-only transaction: nothing to count)
      stat_add(this_thread().stats->log_entries, s.logged);
    s.count = 0;
    if (__builtin_expect(s.ext != nullptr, 0))
      LogExtension::release(s);
  }

  // The key of the entry holding the byte at A: its chunk in the chunk space
  // (COARSE), else its word; CHUNK set if that is a chunk entry's.
  template <bool Coarse>
  __attribute__((always_inline)) static uintptr_t entry_key(uintptr_t a,
                                                            bool &chunk) {
    if constexpr (Coarse) {
      uintptr_t c = a & ~(kChunk - 1);
      if (in_chunk_space(c, kChunk)) {
        chunk = true;
        return c;
      }
    }
    chunk = false;
    return a & ~uintptr_t(7);
  }
  // Coarse-grained logging: buffers [addr, addr + n) as write(), chunks of
  // the chunk space as whole-chunk entries (FILL(chunk, buffer) reads a
  // chunk's current G bytes before its first partial write).
  template <class Fill>
  static void write_coarse(pool::SlotHandle &s, void *addr, const void *src,
                           size_t n, Fill &&fill) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    const auto *bytes = static_cast<const unsigned char *>(src);
    for (uintptr_t p = lo; p < hi;) {
      uintptr_t c = p & ~(kChunk - 1);
      uintptr_t end = c + kChunk < hi ? c + kChunk : hi;
      if (!in_chunk_space(c, kChunk)) {
        uintptr_t next = (p & ~uintptr_t(7)) + 8;
        end = next < hi ? next : hi;
        write(s, reinterpret_cast<void *>(p), bytes + (p - lo), end - p);
        p = end;
        continue;
      }
      pool::LogEntry &e =
          chunk_entry(s, c, /*whole=*/p == c && end == c + kChunk, fill);
      copy_piece(pool::chunk_bytes(e) + (p - c), bytes + (p - lo), end - p);
      p = end;
    }
  }

  // The entry of chunk C, made if the log has none: filled with the chunk's
  // bytes (FILL) unless the caller is about to write it WHOLE.
  template <class Fill>
  __attribute__((always_inline)) static pool::LogEntry &
  chunk_entry(pool::SlotHandle &s, uintptr_t c, bool whole, Fill &&fill) {
    int64_t r = tls_log_index.find(c);
    if (r >= 0)
      return s.entries[r];
    alignas(8) unsigned char now[kChunk];
    if (!whole)
      fill(c, now); // may abort: nothing is logged yet
    pad_to_line(s);
    pool::LogEntry &e = new_chunk_entry(s, c);
    if (!whole)
      memcpy(pool::chunk_bytes(e), now, kChunk);
    return e;
  }

  // write (COARSE: write_coarse) of a T at A within one word, mostly the
  // first write of its word or chunk (the barrier's fast path found no
  // entry): one entry, one lookup, no loop.
  template <bool Coarse, class T, class Fill>
  __attribute__((always_inline)) static void
  write_value(pool::SlotHandle &s, uintptr_t a, const T &value, Fill &&fill) {
    if constexpr (Coarse) {
      uintptr_t c = a & ~(kChunk - 1);
      if (in_chunk_space(c, kChunk))
        return store_value(chunk_entry(s, c, /*whole=*/false, fill), true,
                           unsigned(a - c), value);
    }
    uintptr_t word = a & ~uintptr_t(7);
    store_value(entry_for(s, word), false, unsigned(a - word), value);
  }

  // memcpy of N bytes, inline for an 8-byte word (most writes into a chunk
  // are one aligned word: no call).
  __attribute__((always_inline)) static void
  copy_piece(unsigned char *dst, const unsigned char *src, size_t n) {
    if (__builtin_expect(n == 8, 1))
      memcpy(dst, src, 8);
    else
      memcpy(dst, src, n);
  }

  // Buffers the N bytes at SRC as the new contents of [addr, addr + n).
  static void write(pool::SlotHandle &s, void *addr, const void *src,
                    size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    const auto *bytes = static_cast<const unsigned char *>(src);
    for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
      uint8_t mask = word_mask(word, lo, hi);
      pool::LogEntry &e = entry_for(s, word);
      unsigned char data[8];
      memcpy(data, &e.data, 8);
      for (unsigned i = 0; i < 8; ++i)
        if (mask & (1u << i))
          data[i] = bytes[word + i - lo];
      uint64_t value;
      memcpy(&value, data, 8);
      e.meta = pool::entry_meta(uint8_t(e.meta | mask), s.gen);
      e.data = value; // (the check: at publish)
    }
  }

  // The inline fast path of write (COARSE: of write_coarse) for a T at A
  // within one word: the entry of its word (in the chunk space: of its
  // chunk) exists and takes the bytes. False: nothing was done.
  template <bool Coarse, class T>
  __attribute__((always_inline)) static bool
  try_write(pool::SlotHandle &s, uintptr_t a, const T &value) {
    bool chunk = false;
    uintptr_t key = entry_key<Coarse>(a, chunk);
    int64_t r = tls_log_index.find(key);
    if (r < 0)
      return false;
    store_value(entry_at(s, r), chunk, unsigned(a - key), value);
    return true;
  }

  // A T at offset OFF of entry E's bytes (a word entry's mask gains them;
  // its generation is set).
  template <class T>
  __attribute__((always_inline)) static void
  store_value(pool::LogEntry &e, bool chunk, unsigned off, const T &value) {
    if (chunk)
      return (void)memcpy(pool::chunk_bytes(e) + off, &value, sizeof(T));
    memcpy(reinterpret_cast<unsigned char *>(&e.data) + off, &value, sizeof(T));
    e.meta |= ((uint64_t(1) << sizeof(T)) - 1) << off;
  }

  // The logged value of a T at A within one word (COARSE: chunk entries in
  // the chunk space), if the log has every byte of it (read-after-write).
  template <bool Coarse, class T>
  static bool try_read(const pool::SlotHandle &s, uintptr_t a, T &value) {
    bool chunk = false;
    uintptr_t key = entry_key<Coarse>(a, chunk);
    int64_t r = tls_log_index.find(key);
    if (r < 0)
      return false;
    const pool::LogEntry &e = entry_at(s, r);
    unsigned off = unsigned(a - key);
    if (chunk) {
      memcpy(&value, pool::chunk_bytes(e) + off, sizeof(T));
      return true;
    }
    uint8_t want = uint8_t(((1u << sizeof(T)) - 1) << off);
    if ((uint8_t(e.meta) & want) != want)
      return false;
    memcpy(&value, reinterpret_cast<const unsigned char *>(&e.data) + off,
           sizeof(T));
    return true;
  }

  // Copies [addr, addr + n) as the transaction sees it into DST.
  static void read(const pool::SlotHandle &s, void *dst, const void *addr,
                   size_t n) {
    memcpy(dst, addr, n);
    if (has_entries(s))
      overlay(s, dst, addr, n);
  }

  // may_contain for an access within the word at A (the barriers' fast
  // path): nothing is looked at but the count while the log is empty, then
  // the summary by A's block (a chunk under COARSE, begin's grain).
  __attribute__((always_inline)) static bool
  may_contain_word(const pool::SlotHandle &s, uintptr_t a) {
    return has_entries(s) && tls_log_index.may_contain_block(a);
  }

  // False if no byte of [addr, addr + n) can be in the log (a quick test).
  template <bool Coarse = false>
  __attribute__((always_inline)) static bool
  may_contain(const pool::SlotHandle &s, uintptr_t addr, size_t n) {
    if (!has_entries(s))
      return false;
    for (uintptr_t p = addr; p < addr + n;) { // key by key
      bool chunk;
      uintptr_t key = entry_key<Coarse>(p, chunk);
      if (tls_log_index.may_contain_block(key))
        return true;
      p = key + (chunk ? kChunk : 8);
    }
    return false;
  }

  // Overlays the logged bytes of [addr, addr + n) onto DST (which holds what
  // memory had). Returns true if every byte came from the log.
  template <bool Coarse = false>
  static bool overlay(const pool::SlotHandle &s, void *dst, const void *addr,
                      size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    auto *out = static_cast<unsigned char *>(dst);
    bool all = true;
    for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
      if constexpr (Coarse) {
        uintptr_t c = word & ~(kChunk - 1);
        if (in_chunk_space(c, kChunk)) { // a chunk entry's bytes
          uintptr_t from = lo > c ? lo : c;
          uintptr_t to = hi < c + kChunk ? hi : c + kChunk;
          int64_t r = tls_log_index.find(c);
          if (r >= 0)
            memcpy(out + (from - lo),
                   pool::chunk_bytes(s.entries[r]) + (from - c), to - from);
          else
            all = false;
          word = ((to + 7) & ~uintptr_t(7)) - 8;
          continue;
        }
      }
      uint8_t want = word_mask(word, lo, hi);
      int64_t r = tls_log_index.find(word);
      const pool::LogEntry *e = r >= 0 ? &entry_at(s, r) : nullptr;
      if (!e) {
        all = false;
        continue;
      }
      uint8_t mask = uint8_t(e->meta) & want;
      if (mask != want)
        all = false;
      unsigned char data[8];
      memcpy(data, &e->data, 8);
      for (unsigned i = 0; i < 8; ++i)
        if (mask & (1u << i))
          out[word + i - lo] = data[i];
    }
    return all;
  }

  // Listing 1, Commit.Lazy (after the algorithm's locks and validation).
  // Words in [skip_lo, skip_hi) (the attempt's private stack frames, which
  // may now hold the frames doing the commit) are logged but not written
  // back; recovery ignores them (they are outside the pool).
  // SEALED: the sealed commit (publish). DELTA: the write-back goes DELTA
  // bytes away from the logged addresses (the persister of buffered
  // durability writes the PM view, runtime/pool/persister.cpp). FLOOR
  // (nonzero): stored in the record header's floor with the idle status,
  // in the same line (sp3's persister: the orders up to it are applied,
  // runtime/pool/speculative.h).
  static void commit(pool::SlotHandle &s, uint64_t order, bool sealed,
                     uintptr_t skip_lo = 0, uintptr_t skip_hi = 0,
                     uintptr_t delta = 0, uint64_t floor = 0) {
    if (delta == 0)
      write_back_outside(skip_lo, skip_hi);
    if (!publish(s, order, sealed))
      return;
    write_back(s, skip_lo, skip_hi,
               delta ? WriteBack::StreamLines : WriteBack::FlushEntries, delta);
    persist::sfence();
    mark_idle(s, floor);
  }

  // The persister's ring of records (the file domain,
  // runtime/pool/persister.cpp), whose thread syncs what it writes itself
  // (persist::OwnSyncs): commit_sealed (the record sealed with the replay
  // floor FLOOR in its header, its entries checked, nothing flushed or
  // synced; false when it is empty), sync_record (its pages alone made
  // durable), write_back_unfenced (written DELTA away, nothing fenced or
  // synced) and retire (idle, the extension's link cleared, nothing fenced).
  // The persister builds a record in DRAM (ENTRIES, not SLOT_ENTRIES, unless
  // it extends) and stores it into its slot before its sync.
  static bool commit_sealed(pool::SlotHandle &s, uint64_t order,
                            uint64_t floor) {
    s.hdr->floor = floor;
    return publish<false, false, /*FlushEntries=*/false>(s, order,
                                                         /*sealed=*/true);
  }
  // The pages of S's record (its slot's header, its extension's header, its
  // entries) synced, and no others; start_sync_record: their writes started,
  // for a sync_record later (persist::start_sync_pages; VIEW: where the
  // writer's mapping holds the file's first byte).
  static void sync_record(const pool::SlotHandle &s) {
    persist::Span spans[2];
    record_spans(s, spans);
    persist::sync_file_pages(spans, 2);
  }
  static void start_sync_record(const pool::SlotHandle &s, const void *view) {
    persist::Span spans[2];
    record_spans(s, spans);
    persist::start_sync_pages(view, spans, 2);
  }
  // (in the slot, or in its extension: what the file holds once the
  // record's entries are stored there, wherever S builds them)
  static void record_spans(const pool::SlotHandle &s, persist::Span *spans) {
    const void *first =
        s.ext ? static_cast<const void *>(s.ext) : s.slot_entries;
    const pool::LogEntry *end = (s.ext ? s.entries : s.slot_entries) + s.count;
    spans[0] = {s.hdr, sizeof(pool::SlotHeader)};
    spans[1] = {first, size_t(reinterpret_cast<const char *>(end) -
                              static_cast<const char *>(first))};
  }
  static void write_back_unfenced(pool::SlotHandle &s, uintptr_t delta) {
    write_back(s, 0, 0, WriteBack::StreamLines, delta);
  }
  // Idle, unfenced; FLOOR (0: none) into its header with the status.
  static void retire(pool::SlotHandle &s, uint64_t floor = 0) {
    mark_idle(s, floor, /*fenced=*/false);
  }

  // Log ring: a pool block the transaction allocated of N bytes is logged
  // whole at commit (log_block) rather than flushed behind a fence of its
  // own before the record, if it takes at most this many entries.
  static constexpr uint64_t kLoggedBlockEntries = 8;
  template <bool Coarse> static constexpr bool logs_block(size_t n) {
    return n <= kLoggedBlockEntries * (Coarse ? kChunk : 8);
  }

  // Logs the N bytes of the fresh block at P (under the commit's locks; the
  // block is the transaction's alone): what the log has of it stays (it is
  // newer than memory: a logged write), the rest is taken from memory
  // (unlogged writes: last-allocation tracking, calloc's zeroing). A word
  // entry ends with every byte. The record then holds the block's contents,
  // so they need no fence before it.
  template <bool Coarse>
  static void log_block(pool::SlotHandle &s, const void *p, size_t n) {
    auto lo = reinterpret_cast<uintptr_t>(p);
    for (uintptr_t a = lo; a < lo + n;) {
      bool chunk = false;
      uintptr_t key = entry_key<Coarse>(a, chunk);
      if (chunk) {
        if (tls_log_index.find(key) < 0) {
          pad_to_line(s);
          pool::LogEntry &e = new_chunk_entry(s, key);
          memcpy(pool::chunk_bytes(e), reinterpret_cast<const void *>(key),
                 kChunk);
        }
        a = key + kChunk;
        continue;
      }
      pool::LogEntry &e = entry_for(s, key);
      uint8_t mask = uint8_t(e.meta);
      if (mask != 0xff) {
        unsigned char data[8], now[8];
        memcpy(data, &e.data, 8);
        memcpy(now, reinterpret_cast<const void *>(key), 8);
        for (unsigned b = 0; b < 8; ++b)
          if (!(mask & (1u << b)))
            data[b] = now[b];
        memcpy(&e.data, data, 8);
        e.meta = pool::entry_meta(0xff, s.gen);
      }
      a = key + 8;
    }
  }

  // Buffered durability, under the locks: the write-back alone, nothing
  // flushed, no record (the caller queues the entries, commit_queue.h).
  // False: nothing was logged.
  static bool write_back_only(pool::SlotHandle &s, uintptr_t skip_lo,
                              uintptr_t skip_hi) {
    stat_add(this_thread().stats->log_entries, s.logged);
    write_back_outside(skip_lo, skip_hi);
    if (s.count == 0)
      return false;
    write_back(s, skip_lo, skip_hi, WriteBack::InPlace);
    return true;
  }

  // Log ring commit (log_ring.h), under the locks: the last record's data
  // lines, this record's entries and header are written back behind one
  // sfence, then this record is written back in place, not flushed (the
  // next commit's fence, or LogRing's slow paths, make it durable). Per
  // commit: C*L (or W) + 1 + the previous commit's data lines clwb, 1 sfence
  // (2 unless SEALED); with SKIP_REWRITTEN, not the lines of the previous
  // commit's entries that this record holds again whole (flush_last_listed).
  // False: nothing was logged.
  template <bool SkipRewritten = false>
  static bool commit_ring(pool::SlotHandle &s, uint64_t order, bool sealed,
                          uintptr_t skip_lo, uintptr_t skip_hi) {
    write_back_outside(skip_lo, skip_hi);
    if (!publish<true, SkipRewritten>(s, order, sealed))
      return false;
    write_back_listed(s);
    if (__builtin_expect(s.ext != nullptr, 0)) {
      LogExtension::retire_ring(s, order); // (durable and idle at once)
      return true;
    }
    if constexpr (SkipRewritten) // (for flush_last_listed)
      tls_log_index.keep_last();
    // Only now (its data in place) may another thread write them back for
    // it and let the floor pass ORDER (LogRing::make_room).
    ReplayFloor::published(s.index, order);
    if (s.frees_held)
      s.free_order = order;
    s.last_unflushed = true;
    s.last_part = s.part;
    s.last_count = s.count;
    if (s.capacity == s.slot_capacity) // spilled over every part
      s.wide_order = order;
    s.part = uint8_t((s.part + 1) % pool::kRingParts);
    s.count = 0;
    return true;
  }

  // Deferred flushing (paper IV-D), under the locks: as commit up to the
  // write-back, which issues no clwb. False: nothing was logged (nothing to
  // finish). The caller releases its locks, then calls finish_deferred.
  static bool commit_deferred(pool::SlotHandle &s, uint64_t order, bool sealed,
                              uintptr_t skip_lo, uintptr_t skip_hi) {
    write_back_outside(skip_lo, skip_hi);
    if (!publish(s, order, sealed))
      return false;
    write_back(s, skip_lo, skip_hi, WriteBack::InPlace);
    return true;
  }

  // Deferred flushing, locks released: clwb every written word (a later
  // writer's value, if one has locked and changed the word since, is what
  // goes back: it is newer), sfence, status idle, clwb, sfence. Same counts
  // as commit: 2W+2 clwb, 4 sfence. BEFORE_IDLE runs after the sfence.
  template <class F>
  static void finish_deferred(pool::SlotHandle &s, uintptr_t skip_lo,
                              uintptr_t skip_hi, F &&before_idle) {
    for (uint64_t i = 0; i < s.count; i += pool::entry_records(s.entries[i])) {
      uintptr_t a = s.entries[i].addr;
      if (pool::entry_kind(s.entries[i]) != pool::kPadEntry &&
          (a < skip_lo || a >= skip_hi))
        persist::clwb_data(reinterpret_cast<const void *>(a));
    }
    persist::sfence();
    before_idle();
    mark_idle(s);
  }

  // The log ring's write-back in place: each entry of the record through
  // the index's list of keys, in the order they were made, none decoded (a
  // record holds the pool's data only: no entry falls in the attempt's stack
  // frames, pads are not listed; the entries outside the pool are
  // write_back_outside's).
  static void write_back_listed(const pool::SlotHandle &s) {
    const SlotLogIndex &x = tls_log_index;
    for_each_in_slot(
        x.keys, x.nkeys, [&](uint64_t key, uint64_t r, bool chunk) {
          if (chunk)
            memcpy(reinterpret_cast<void *>(key),
                   pool::chunk_bytes(s.entries[r]), kChunk);
          else
            store_word(reinterpret_cast<unsigned char *>(key), s.entries[r]);
        });
  }

  // F(key, record, chunk) for each of the N listed KEYS whose entry is in
  // the slot's record (not outside the pool), in order.
  template <class F>
  __attribute__((always_inline)) static void
  for_each_in_slot(const SlotLogIndex::Key *keys, uint64_t n, F &&f) {
    for (uint64_t i = 0; i < n; ++i) {
      SlotLogIndex::Key k = keys[i];
      if (k.record & OutsideEntries::kOutsideRecord)
        continue;
      f(k.key, k.record & ~SlotLogIndex::kChunkKey,
        (k.record & SlotLogIndex::kChunkKey) != 0);
    }
  }

  // LogRing::flush_last at a commit with SKIP_REWRITTEN, for the thread's
  // own last record, from the keys its commit listed
  // (SlotLogIndex::keep_last): a line is flushed unless the record being
  // built holds its entry again whole (a chunk entry of the same chunk; a
  // word entry with every byte of its mask): the new record then stands for
  // it until its own data are durable (docs/algorithms.md "Rewritten
  // lines"), and each line once (LineFlusher). Nothing decoded, no address
  // tested: the record held pool data only (write_back_listed).
  static void flush_last_listed(pool::SlotHandle &s) {
    if (!s.last_unflushed)
      return;
    s.last_unflushed = false;
    const pool::LogEntry *last = LogRing::last_record(s);
    const SlotLogIndex &x = tls_log_index;
    persist::LineFlusher lines;
    for_each_in_slot(
        x.last_keys, x.nlast, [&](uint64_t key, uint64_t was, bool chunk) {
          int64_t r = x.find(key);
          uint64_t m = last[was].meta & 0xff; // (a word entry's mask)
          if (r >= 0 && (chunk || (entry_at(s, r).meta & m) == m))
            return; // rewritten: the new record stands for it
          lines.flush(reinterpret_cast<const void *>(key));
        });
  }

private:
  // seal_entries for a staged record, whose lines are streamed whole: the
  // check of each entry through the index's list (write_back_listed; its
  // pads got theirs when they were made).
  static void seal_listed(pool::SlotHandle &s) {
    const SlotLogIndex &x = tls_log_index;
    for_each_in_slot(x.keys, x.nkeys, [&](uint64_t, uint64_t r, bool chunk) {
      pool::LogEntry &e = s.entries[r];
      e.check = chunk ? pool::chunk_check(e.addr, e.meta, kChunk,
                                          pool::chunk_bytes(e))
                      : pool::entry_check(e.addr, e.meta, e.data);
    });
  }

  // Computes the check of each of the W records from E, and calls
  // WRITTEN(entry, bytes) with each entry's extent (a pad record shares the
  // line of the word entry before it).
  template <class Written>
  __attribute__((always_inline)) static void
  seal_entries(pool::LogEntry *e, uint64_t w, Written written) {
    for (uint64_t i = 0; i < w;) {
      pool::LogEntry &x = e[i];
      switch (pool::entry_kind(x)) {
      case pool::kChunkEntry:
        x.check =
            pool::chunk_check(x.addr, x.meta, kChunk, pool::chunk_bytes(x));
        written(x, kChunk + sizeof x);
        i += pool::chunk_records(kChunk);
        continue;
      case pool::kPadEntry:
        break;
      default:
        x.check = pool::entry_check(x.addr, x.meta, x.data);
        written(x, sizeof x);
      }
      ++i;
    }
  }

  // Flush the entries, sfence, count + order + status committed, clwb,
  // sfence. False (and nothing done) when the log is empty. SEALED: no
  // sfence between the entries and the status, which says redo-sealed:
  // recovery replays the log only if every entry it declares is valid (each
  // entry's check covers its generation and bytes), so a crash inside the
  // one fence leaves either the whole log or a torn one that recovery
  // discards; nothing is written in place before the fence.
  // RING: a log ring's record (its part's header, the replay floor, the
  // last record's data lines flushed behind the same fence). Without
  // FLUSH_ENTRIES the entries get their checks and no flush (a record whose
  // writer syncs its pages: commit_sealed).
  template <bool Ring = false, bool SkipRewritten = false,
            bool FlushEntries = true>
  static bool publish(pool::SlotHandle &s, uint64_t order, bool sealed) {
    uint64_t w = s.count;
    stat_add(this_thread().stats->log_entries, s.logged);
    if (w == 0)
      return false;
    if constexpr (Ring && SkipRewritten)
      flush_last_listed(s);
    else if constexpr (Ring)
      LogRing::flush_last(s);
    // Staged: the checks in the stage, then every line streamed; else each
    // entry's lines written back once its check is in.
    if (s.stage != nullptr) {
      seal_listed(s);
      LogStage::stream(s, w);
    } else {
      seal_entries(s.entries, w, [](pool::LogEntry &e, size_t bytes) {
        if (FlushEntries)
          persist::flush_range(&e, bytes);
      });
    }
    if (!sealed)
      persist::sfence();
    pool::RecordHeader &h = pool::record_header(*s.hdr, Ring ? s.part : 0);
    uint64_t floor = 0;
    if constexpr (Ring) {
      floor = ReplayFloor::compute(s.index, order, s.floor);
      h.floor = floor;
    }
    h.redo_count = w;
    h.commit_order = order;
    __atomic_store_n(
        &h.status,
        pool::slot_status(sealed ? pool::kRedoSealed : pool::kRedoCommitted,
                          s.gen),
        __ATOMIC_RELEASE);
    persist::clwb(&h);
    persist::sfence();
    if constexpr (Ring)
      s.floor = floor;
    return true;
  }

  // How write_back writes an entry in place: a plain store and nothing else
  // (the log ring flushes later), a plain store and a clwb of its line
  // (Listing 1), or, for the persister of buffered durability writing the
  // PM view (DELTA != 0), streamed (persist::stream_span: the PM view's
  // lines are not in the cache, and a store would read each for ownership
  // first) and counted once per run of entries in one line.
  enum class WriteBack { InPlace, FlushEntries, StreamLines };

  static void write_back(pool::SlotHandle &s, uintptr_t skip_lo,
                         uintptr_t skip_hi, WriteBack how,
                         uintptr_t delta = 0) {
    uintptr_t counted = 0; // StreamLines: the line counted last
    auto streamed = [&](const void *p) {
      uintptr_t line =
          reinterpret_cast<uintptr_t>(p) & ~(persist::kLineSize - 1);
      if (line != counted)
        persist::streamed_line();
      counted = line;
    };
    for (uint64_t i = 0; i < s.count; i += pool::entry_records(s.entries[i])) {
      const pool::LogEntry &e = s.entries[i];
      pool::EntryKind kind = pool::entry_kind(e);
      if (kind == pool::kPadEntry || (e.addr >= skip_lo && e.addr < skip_hi))
        continue;
      if (kind == pool::kChunkEntry) {
        auto *chunk = reinterpret_cast<void *>(e.addr + delta);
        if (how == WriteBack::StreamLines) {
          persist::stream_span(chunk, pool::chunk_bytes(e), kChunk);
          streamed(chunk);
          continue;
        }
        memcpy(chunk, pool::chunk_bytes(e), kChunk);
        if (how == WriteBack::FlushEntries)
          persist::clwb(chunk);
        continue;
      }
      auto *word = reinterpret_cast<unsigned char *>(e.addr + delta);
      if (uint8_t(e.meta) == 0xff && how == WriteBack::StreamLines) {
        persist::stream_span(word, &e.data, 8);
        streamed(word);
        continue;
      }
      store_word(word, e);
      if (how != WriteBack::InPlace &&
          persist::is_pool_data(reinterpret_cast<void *>(e.addr), 8))
        persist::clwb(word); // (at DELTA from the pool data at e.addr)
    }
  }

  // The logged bytes of word entry E, stored at WORD.
  static void store_word(unsigned char *word, const pool::LogEntry &e) {
    uint8_t mask = uint8_t(e.meta);
    if (mask == 0xff)
      return (void)memcpy(word, &e.data, 8);
    unsigned char data[8];
    memcpy(data, &e.data, 8);
    for (unsigned b = 0; b < 8; ++b)
      if (mask & (1u << b))
        word[b] = data[b];
  }

  // Under the commit's locks: the entries outside the pool written back in
  // place (stores, nothing flushed), but for those in [skip_lo, skip_hi).
  static void write_back_outside(uintptr_t skip_lo, uintptr_t skip_hi) {
    const OutsideEntries &o = tls_outside;
    for (uint64_t i = 0; i < o.count; ++i) {
      const pool::LogEntry &e = o.entries[i];
      if (e.addr < skip_lo || e.addr >= skip_hi)
        store_word(reinterpret_cast<unsigned char *>(e.addr), e);
    }
  }

  // (FLOOR: before the status, in its line: a durable idle status implies
  // it)
  // (FENCED false: the status and the extension's link left to the next
  // fence)
  static void mark_idle(pool::SlotHandle &s, uint64_t floor = 0,
                        bool fenced = true) {
    if (floor != 0)
      __atomic_store_n(&s.hdr->floor, floor, __ATOMIC_RELAXED);
    __atomic_store_n(&s.hdr->status, pool::slot_status(pool::kIdle, s.gen),
                     __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->status);
    if (fenced)
      persist::sfence();
    s.count = 0;
    if (__builtin_expect(s.ext != nullptr, 0))
      LogExtension::release(s, fenced);
  }

  static pool::LogEntry &entry_for(pool::SlotHandle &s, uint64_t word) {
    int64_t r = tls_log_index.find(word);
    if (r >= 0)
      return entry_at(s, r);
    if (!persist::is_pool_data(reinterpret_cast<const void *>(word), 8))
      return new_outside_entry(s, word);
    if (__builtin_expect(s.count == s.capacity, 0))
      slot_log_full(s, 1);
    tls_log_index.insert(word, s.count);
    ++s.logged;
    pool::LogEntry &e = s.entries[s.count++];
    e.addr = word;
    e.meta = pool::entry_meta(0, s.gen);
    e.data = 0;
    return e;
  }

  // A new entry for WORD, outside the pool's data (outside_entries.h).
  static pool::LogEntry &new_outside_entry(pool::SlotHandle &s, uint64_t word) {
    uint64_t r = tls_outside.add();
    tls_log_index.insert(word, r);
    ++s.logged;
    pool::LogEntry &e = tls_outside.at(r);
    e.addr = word;
    e.meta = pool::entry_meta(0, s.gen);
    e.data = 0;
    return e;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_PERSISTENT_REDO_LOG_H
