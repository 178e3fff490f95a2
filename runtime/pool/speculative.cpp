//===- speculative.cpp - sp3's records and dependency waits ---------------===//

#include "runtime/pool/speculative.h"

#include "runtime/base/atomic_max.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/persistent_redo_log.h"
#include "runtime/persist/shadow.h"
#include "runtime/pool/commit_queue.h"
#include "runtime/pool/persister.h"

#include <algorithm>
#include <sched.h>
#include <vector>

namespace ptm {
namespace pool {

extern PoolView open_view; // persistent_pool.h

bool library_speculative = false;
std::atomic<uint64_t> *speculative_clock = nullptr;
bool speculative = false;
std::atomic<uint64_t> speculative_floor{0};
PendingOrder pending_orders[kMaxSlots];
std::atomic<uint32_t> pending_high_water{0};

namespace {

// The largest order written into each slot's speculative log: a thread that
// claims the slot next starts a new stream once the floor has passed it.
std::atomic<uint64_t> slot_last_order[kMaxSlots];

// A slot's speculative log as its claimant writes it: the pool and claim
// it belongs to (a new claim starts a new stream), its epoch, where the next
// record goes, and per segment of the slot's entries (kSegments of them)
// the largest order written there in the current or the last lap around
// the slot. Static, per slot: threads that come and go allocate nothing.
constexpr unsigned kSegments = 64;
struct Stream {
  uint64_t pool_epoch = 0, claim = 0;
  uint64_t epoch = 0; // 0: the stream's first record is still to come
  uint64_t pos = 0;
  unsigned segment = 0; // the segment the stream is in
  uint64_t largest[kSegments];
};
Stream streams[kMaxSlots];

// The record being finished: its order and entries (the slot's record as
// the thread built it: in its stage or the DRAM copy); the largest order
// the thread queued.
__thread uint64_t tls_order, tls_count, tls_queued;
__thread LogEntry *tls_body;
__thread bool tls_record; // a record is to be written
__thread bool tls_big;    // the attempt allocated a block too large for it

PendingOrder &pending(uint32_t slot) { return pending_orders[slot]; }

// Returns once the floor is at or past ORDER.
void wait_floor(uint64_t order) {
  if (speculative_floor.load(std::memory_order_acquire) < order)
    persister_sync(order);
}

Stream &stream_of(const SlotHandle &s) {
  Stream &st = streams[s.index];
  uint64_t claim = s.hdr->claim_gen; // (the DRAM copy: this claim's)
  if (st.pool_epoch != s.epoch || st.claim != claim) {
    st.pool_epoch = s.epoch;
    st.claim = claim;
    st.epoch = 0;
    st.pos = 0;
    st.segment = 0;
    for (uint64_t &o : st.largest)
      o = 0;
  }
  return st;
}

// A stream's first record: once the floor has passed every record of the
// slot's last stream, the slot's next epoch, durable (its own fence: the
// status is in another line, and a durable kRedoStream status with the old
// epoch would take an older stream's records, left in the entries, for
// this one's), then the header's kRedoStream status (made durable by the
// record's fence: until then the old epoch's records, all superseded, or
// none). Written in the DRAM copy's header and written back from there
// (shadow.h), as the claims write theirs.
void open_stream(const SlotHandle &s, Stream &st) {
  wait_floor(slot_last_order[s.index].load(std::memory_order_acquire));
  SlotHeader *h = s.hdr;
  st.epoch = (h->stream_epoch + 1) & 0xffffffffu;
  if (st.epoch == 0)
    st.epoch = 1;
  h->stream_epoch = st.epoch;
  persist::clwb(&h->stream_epoch);
  persist::sfence();
  __atomic_store_n(&h->status, slot_status(kRedoStream, s.gen),
                   __ATOMIC_RELEASE);
  persist::clwb(h);
}

// An entry of the record: generation ORDER and its check.
void seal_for(LogEntry &x, uint64_t order) {
  x.meta = entry_meta(uint8_t(x.meta), order);
  if (entry_kind(x) == kChunkEntry)
    x.check = chunk_check(x.addr, x.meta, x.data, chunk_bytes(x));
  else
    x.check = entry_check(x.addr, x.meta, x.data);
}

// Writes the record (TLS_COUNT entries from BODY, then DEPS) into S's
// speculative log in the PM view; the caller fences.
void write_record(SlotHandle &s, LogEntry *body, const uint64_t *deps,
                  size_t ndeps) {
  Stream &st = stream_of(s);
  uint64_t order = tls_order, count = tls_count;
  uint64_t cap = s.slot_capacity & ~uint64_t(1);
  uint64_t r = count + ndeps;
  r += r & 1;
  if (2 + r > cap) // (speculative_queue made it big)
    fatal("sp3: a record of %llu entries in a slot of %llu",
          (unsigned long long)(2 + r), (unsigned long long)cap);
  if (st.epoch == 0)
    open_stream(s, st);
  // The body: generation ORDER, the dependencies, a pad to a whole line;
  // the head line: the head and the body's sum.
  for (uint64_t i = 0; i < count; i += entry_records(body[i]))
    seal_for(body[i], order);
  for (size_t i = 0; i < ndeps; ++i) {
    LogEntry &d = body[count + i];
    d = LogEntry{kDepEntryAddr, 0, deps[i], 0};
    seal_for(d, order);
  }
  if ((count + ndeps) & 1) {
    LogEntry &p = body[count + ndeps];
    p = LogEntry{0, 0, 0, 0};
    seal_for(p, order);
  }
  alignas(64)
      LogEntry head[2] = {{kStreamHeadAddr, 0, r | st.epoch << 32, 0},
                          {kStreamSumAddr, 0, stream_body_sum(body, r), 0}};
  seal_for(head[0], order);
  seal_for(head[1], order);
  // Its place: the records it overwrites must be at or below the floor.
  // Entering a segment (in order, around the slot), the stream waits for
  // the largest order of its last lap there.
  uint64_t pos = st.pos;
  if (pos + 2 + r > cap)
    pos = 0;
  uint64_t per = (cap + kSegments - 1) / kSegments;
  unsigned first = unsigned(pos / per), last = unsigned((pos + 1 + r) / per);
  for (unsigned g = first; g <= last; ++g) {
    if (g != st.segment || pos < st.pos) {
      wait_floor(st.largest[g]);
      st.largest[g] = 0;
      st.segment = g;
    }
  }
  for (unsigned g = first; g <= last; ++g)
    st.largest[g] = order;
  auto *to = reinterpret_cast<LogEntry *>(persist::pm_address(
                 reinterpret_cast<uintptr_t>(s.slot_entries))) +
             pos;
  persist::stream_span(to, head, sizeof head);
  persist::streamed_line();
  for (uint64_t i = 0; i < r; i += 2) {
    persist::stream_span(to + 2 + i, body + i, 64);
    persist::streamed_line();
  }
  raise_to(slot_last_order[s.index], order);
  // The persister is woken when the stream passes each half, so that the
  // space ahead is free by the time the stream comes back to it.
  uint64_t half = cap / 2, next = pos + 2 + r;
  if (pos / half != next / half || pos < st.pos)
    persister_kick();
  st.pos = next;
}

// The orders of DEPS (sorted) that another slot still has pending, into OUT.
size_t live_deps(uint32_t self, const uint64_t *deps, size_t n, uint64_t *out) {
  size_t k = 0;
  uint32_t slots = pending_high_water.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < slots; ++i) {
    if (i == self)
      continue;
    uint64_t p = pending(i).order.load(std::memory_order_acquire);
    if (p != 0 && std::binary_search(deps, deps + n, p))
      out[k++] = p;
  }
  std::sort(out, out + k);
  return k;
}

// S's write set fits a speculative record with DEPS dependencies
// (write_record: a head line, the body and the dependencies, a pad).
bool fits_record(const SlotHandle &s, size_t deps) {
  return 2 + s.count + deps + 1 <= (s.slot_capacity & ~uint64_t(1));
}

} // namespace

void speculative_queue(SlotHandle &s, TxThread &tx, uintptr_t skip_lo,
                       uintptr_t skip_hi, uint64_t order, bool big,
                       size_t deps) {
  bool wrote = PersistentRedoLog::write_back_only(s, skip_lo, skip_hi);
  tls_order = order;
  tls_count = wrote ? s.count : 0;
  // A write set larger than a record (its log extended): like a block too
  // large, the persister writes it (its record extends) and the
  // transaction waits for the floor; its buffer is not needed after the
  // queue has its copy.
  if (wrote && !fits_record(s, deps))
    big = true;
  tls_body = s.entries;
  tls_record = speculative && (wrote || deps != 0);
  if (!tls_record)
    pending(s.index).order.store(0, std::memory_order_release);
  tls_big = speculative && big;
  queue_speculative(s, tx, order, wrote);
  raise_to(commit_seq, order);
  tls_queued = order;
  s.count = 0;
  if (__builtin_expect(s.ext != nullptr, 0)) // (big: TLS_BODY is not read)
    LogExtension::release(s);
}

void speculative_dead(SlotHandle &s, uint64_t order) {
  queue_empty(s, order);
  raise_to(commit_seq, order);
  tls_queued = order;
  pending(s.index).order.store(0, std::memory_order_release);
}

void speculative_wait(uint32_t self, const uint64_t *deps, size_t n) {
  uint32_t slots = pending_high_water.load(std::memory_order_acquire);
  for (uint32_t i = 0; i < slots; ++i) {
    if (i == self)
      continue;
    uint64_t p = pending(i).order.load(std::memory_order_acquire);
    if (p == 0 || !std::binary_search(deps, deps + n, p))
      continue;
    for (unsigned spins = 0;
         pending(i).order.load(std::memory_order_acquire) == p;) {
      if (++spins > 64)
        sched_yield();
      else
        __builtin_ia32_pause();
    }
  }
}

void speculative_finish(SlotHandle &s, const uint64_t *deps, size_t n) {
  uint32_t self = s.index;
  uint64_t live[kMaxSlots];
  size_t k = n ? live_deps(self, deps, n, live) : 0;
  if (speculative && tls_big) {
    // A block too large for the record: the persister writes it (from the
    // queue's copy, as the transaction left it: the DRAM copy may hold later
    // transactions' writes into it by now) with the rest of the
    // transaction; once the floor has passed ORDER, the transaction and
    // every one before it are in the file, and no record is needed.
    wait_floor(tls_order);
    k = 0;
  } else if (speculative && tls_record) {
    write_record(s, tls_body, live, k);
    persist::sfence();
  }
  if (k != 0)
    speculative_wait(self, live, k);
  tls_count = 0;
  tls_record = tls_big = false;
  pending(self).order.store(0, std::memory_order_release);
}

void speculative_thread_exit() {
  // Its queue written (the persister's buffers are freed after each round).
  // (a slot taken from the thread or given back: still this pool's queue)
  if (buffered && (tls_slot.epoch & ~kSlotTaken) == pool_epoch.load() &&
      tls_queued != 0)
    persister_sync(tls_queued);
  tls_queued = 0;
}

void speculative_reset() {
  for (auto &o : slot_last_order)
    o.store(0, std::memory_order_relaxed);
  for (auto &p : pending_orders)
    p.order.store(0, std::memory_order_relaxed);
  pending_high_water.store(0, std::memory_order_relaxed);
  uint64_t now = speculative_clock ? speculative_clock->load() : 0;
  speculative_floor.store(now, std::memory_order_seq_cst);
}

} // namespace pool
} // namespace ptm
