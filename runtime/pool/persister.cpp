//===- persister.cpp - writes buffered commits to the file ----------------===//

#include "runtime/pool/persister.h"

#include "runtime/base/report.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/log_extension.h"
#include "runtime/persist/persistent_redo_log.h"
#include "runtime/pool/commit_queue.h"
#include "runtime/pool/heap_adapter.h"
#include "runtime/pool/persistent_pool.h"
#include "runtime/pool/speculative.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include <vector>

// The group commit's wait for writers (kMaxGather below; CMake
// PTM_OPT_COMMIT_GATHER, the ablation): off, a round starts at once.
#ifndef PTM_OPT_COMMIT_GATHER
#define PTM_OPT_COMMIT_GATHER 1
#endif

namespace ptm {
namespace pool {

namespace {

// One queued transaction: its sequence number and items.
struct QueuedTx {
  uint64_t seq;
  const uint64_t *items;
  uint64_t words;
};

// An item of a queued transaction (commit_queue.h).
struct Item {
  uint64_t addr, len;
  uint32_t flags;
  const unsigned char *bytes;
  uint64_t words() const { return 2 + (len + 7) / 8; }
};

Item item_at(const uint64_t *w) {
  return Item{w[0], w[1] & 0xffffffffu, uint32_t(w[1] >> 32),
              reinterpret_cast<const unsigned char *>(w + 2)};
}

// Log records an item can take, at most: a word entry per word, or chunk
// entries (chunk_records(G) records for G / 8 words) with their padding.
uint64_t entries_of(const Item &it) {
  uint64_t lo = it.addr & ~uint64_t(7), hi = (it.addr + it.len + 7) & ~7ull;
  return 2 * (hi - lo) / 8 + 2;
}

struct Persister;

// Where the persister's record extends when it outgrows its slot
// (log_extension.h): a run of chunks free in the PM view (which holds the
// pool after every record written so far, and which only the persister
// writes), none of which the record's transactions write (their blocks and
// words, written back when it is sealed) or its current extension holds;
// linked from the persister's slot in the file. Nothing to give back: the
// file's heap metadata never said otherwise than free.
struct ViewSource final : ExtensionSource {
  Persister *p = nullptr;
  void *lend(size_t bytes, size_t *got) override;
  void give_back(void *, size_t) override {}
  uint64_t link_of(const void *block) const override;
};

// The file domain's records: a ring of up to kRing service slots, record k
// in slot k mod N (not sp3, whose floor is stored with the idle status).
// The persister's thread syncs what it writes itself (persist::OwnSyncs):
//
//   record k sealed, its floor in its header: SYNCED_BACK (every record up
//     to it written back and covered by a sync of the whole file)
//   its pages alone synced (a sync of one or two runs of pages: the commits
//     it holds are durable; the threads waiting for them go on)
//   written back, nothing synced
//
// and before the next record takes a slot whose record is above
// SYNCED_BACK, a checkpoint: one sync of the whole file (every write-back
// so far durable; SYNCED_BACK = the last record written back). So a round
// syncs its record's few pages, and the data pages of N - 1 rounds are
// synced together once (a page written by several of them, once).
// A crash leaves the records of the ring, which recovery replays in commit
// order above the largest floor: those not covered by a checkpoint are all
// intact (a slot is rewritten only once its record is at or below
// SYNCED_BACK, and the record that rewrites it names that floor; if its
// header did not reach the disk, the torn record is the oldest one, whose
// data are durable, and every later one is replayed). Drained (sync, every
// record retired, sync) when idle, at close, and before and after the
// record of a transaction larger than a slot, which extends into memory
// free in the file: no other record is then replayed over that memory,
// and no later write-back reuses it while the record may be replayed.
//
// A record is built in DRAM, in one of two stages (the one of the record in
// flight, below, is the other), and stored into its slot in the file with
// one pwrite once sealed: the slot's pages in the PM view are never touched
// (a store would fault each of them in again after every sync, and the
// sync would write-protect them), and the record, its fills and its
// write-back read a stage that is still in the cache.
//
// A record's sync is started when it is sealed and finished when the next
// one is about to be sealed (the record in flight): the disk writes it
// while the next record is built. Meanwhile it is neither durable (its
// commits not published) nor written back, so a chunk entry of the next
// record that starts from the chunk's bytes takes them from the record in
// flight if it has the chunk (its index is kept for that), else from the
// PM view; memory for a log extension is found only with nothing in flight.
// Finished at once under strict durability (a committed thread waits for
// each record: the old order, record synced before the next slot's
// checkpoint), when a thread waits in ptm_sync, when no more commits wait
// to be written, and before a drain; so a record is sealed only once every
// earlier one is durable, and a torn newest record is never followed by a
// sealed one.
constexpr unsigned kRing = 32;

// Group commit under strict durability through the persister (awaited): a
// round that a committed thread waits for first waits for the threads
// that are inside a writing transaction (tx_presence.h kWriting) to leave
// it, so that their commits share its sync instead of each waiting for a
// sync of its own one round later (PostgreSQL's commit_delay, with the
// threads' own state in place of a guess). It waits at most the time its
// record syncs have taken lately (a moving average), never more than
// kMaxGather, and not at all when no other thread writes (one thread: no
// delay). A thread that commits wakes it (persister_sync).
//
// It also waits for the threads that shared the last round (two or more
// queues taken) and have not queued again: each of them was woken by that
// round's sync and is most likely starting its next transaction, not yet
// marked kWriting (the wake-up alone takes tens of microseconds on a
// virtual machine), so without the wait every other round would carry one
// commit. This wait is shorter, at most half the record syncs' average: a
// thread that does not come back soon (it reads, or works outside
// transactions) costs that once, and is not waited for in the round after.
constexpr auto kMaxGather = std::chrono::microseconds(2000);
constexpr auto kGatherPoll = std::chrono::microseconds(50);
constexpr uint32_t kMaxGathered = 64; // threads followed per round

struct Persister {
  pthread_t thread;
  std::mutex m;
  std::condition_variable wake, written, room;
  bool stop = false;
  bool room_wanted = false; // a thread waits for its queue to be taken
  bool kicked = false;      // a thread's queue reached its kick size
  uint64_t wanted = 0;      // a caller waits for the sequence up to here
  uint64_t persisted = 0;   // every sequence number up to here is in the file
  std::atomic<uint64_t> durable{0}; // PERSISTED, read without M
  std::chrono::milliseconds interval{10};
  uintptr_t delta = 0;
  SlotHandle slot{}; // its pointers in the PM view
  // The ring (the file domain): SLOT is slots[cur]; SEALED: the order of a
  // slot's record sealed and not yet retired (0: idle); WRITTEN_BACK: the
  // order of the last record written back; SYNCED_BACK: every record up to
  // here written back and synced.
  bool in_ring = false;
  unsigned ring = 0;
  SlotHandle slots[kRing]{};
  uint64_t sealed[kRing]{};
  unsigned cur = 0;
  uint64_t written_back = 0, synced_back = 0;
  // Every sequence number up to RECORDED is in a sealed record or had
  // nothing to write; PENDING: up to here once the record in flight is
  // durable.
  uint64_t recorded = 0, pending = 0;
  // The record in flight (see kRing): its slot, order, index, and what
  // starting its sync took.
  bool in_flight = false;
  unsigned flight_at = 0;
  uint64_t flight_seq = 0;
  SlotLogIndex flight_index;
  std::chrono::nanoseconds flight_start{0};
  // The ring's stages (see kRing); BUILDING: the record being built's.
  LogEntry *stages[2] = {};
  uint64_t stage_capacity = 0;
  unsigned building = 0;
  int fd = -1; // the pool file, for writing
  // The record syncs' moving average (the group commit's bound; 0: none
  // measured yet).
  std::chrono::nanoseconds sync_time{0};
  ViewSource extensions;
  // The transactions of the record being built: txs[record_first,
  // record_end).
  size_t record_first = 0, record_end = 0;

  // (the persister's thread only)
  GrowBuffer<uint64_t> taken[kMaxSlots]; // queues taken this round
  uint32_t sharers[kMaxGathered];        // the slots whose queues it took
  uint32_t nsharers = 0;                 // how many
  GrowBuffer<uint64_t> carry, carried;   // transactions past the run
  std::vector<QueuedTx> txs;

  void run();
  uint64_t round();
  void collect(const GrowBuffer<uint64_t> &q);
  void write_run(size_t n);
  void add(const QueuedTx &t, bool fresh_written);
  void write_fresh(const QueuedTx &t);
  void seal(uint64_t seq);
  void seal_in_ring(uint64_t seq);
  void finish_flight();
  void open_slot();
  void checkpoint() {
    persist::sync_file_unmapping(open_view.base + delta, open_view.size());
    synced_back = written_back;
  }
  void publish_persisted(uint64_t seq) {
    {
      std::lock_guard<std::mutex> lock(m);
      persisted = seq;
    }
    durable.store(seq, std::memory_order_release);
    written.notify_all();
  }
  void drain();
  void gather();

  // Into the record: chunk entries in the chunk space (one lookup for a
  // chunk's words); a chunk's first partial write starts from its bytes in
  // the PM view, which holds the pool after every earlier record.
  void put(void *addr, const void *src, size_t n) {
    PersistentRedoLog::write_coarse(
        slot, addr, src, n, [this](uintptr_t chunk, void *buf) {
          const void *from = reinterpret_cast<const void *>(chunk + delta);
          if (in_flight) {
            int64_t r = flight_index.find(chunk);
            if (r >= 0)
              from = chunk_bytes(slots[flight_at].entries[r]);
          }
          memcpy(buf, from, PersistentRedoLog::kChunk);
        });
  }
};

Persister *persister;

void *ViewSource::lend(size_t bytes, size_t *got) {
  HeapImpl *heap = pool_heap;
  if (!heap)
    return nullptr;
  p->finish_flight(); // (the PM view's heap after every record)
  std::vector<uint64_t> skip;
  for (size_t i = p->record_first; i < p->record_end; ++i) {
    const QueuedTx &t = p->txs[i];
    for (uint64_t w = 0; w < t.words;) {
      Item it = item_at(t.items + w);
      w += it.words();
      heap->mark_chunks(skip, reinterpret_cast<const void *>(it.addr), it.len);
    }
  }
  // (the records still to be replayed after a crash, too)
  for (const SlotHandle &s : p->slots)
    if (s.ext)
      heap->mark_chunks(skip, reinterpret_cast<const char *>(s.ext) - p->delta,
                        s.ext_bytes);
  if (p->slot.ext)
    heap->mark_chunks(skip,
                      reinterpret_cast<const char *>(p->slot.ext) - p->delta,
                      p->slot.ext_bytes);
  return heap->free_run_in_copy(intptr_t(p->delta), bytes, skip, got);
}

uint64_t ViewSource::link_of(const void *block) const {
  return uint64_t(static_cast<const char *>(block) - p->delta - open_view.base);
}

void Persister::collect(const GrowBuffer<uint64_t> &q) {
  for (size_t at = 0; at < q.size;) {
    txs.push_back(QueuedTx{q[at], &q[at + 2], q[at + 1]});
    at += 2 + q[at + 1];
  }
}

// The record of the transactions written so far, up to SEQ: durable, then
// in the PM view, then idle (PersistentRedoLog::commit with the PM view's
// offset). sp3: SEQ is the floor (speculative.h) from the idle status on,
// stored in its line: the speculative records up to SEQ, superseded, are
// never replayed over the data written here.
void Persister::seal(uint64_t seq) {
  if (in_ring)
    return seal_in_ring(seq);
  PersistentRedoLog::commit(slot, seq, /*sealed=*/true, 0, 0, delta,
                            speculative ? seq : 0);
  if (speculative)
    speculative_floor.store(seq, std::memory_order_release);
  open_slot();
}

// Once the record in flight is finished, seals the record in slots[cur] and
// starts syncing its pages (in flight), then opens the next slot of the
// ring, after a checkpoint if its record is not yet covered by one.
void Persister::seal_in_ring(uint64_t seq) {
  finish_flight();
  SlotHandle &s = slots[cur];
  s = slot;
  if (!PersistentRedoLog::commit_sealed(s, seq, synced_back))
    return;
  char *view = open_view.base + delta;
  if (!s.ext) // (an extended record is in the PM view)
    persist::write_through_file(fd, view, s.slot_entries, s.entries,
                                s.count * sizeof(LogEntry));
  auto start = std::chrono::steady_clock::now();
  PersistentRedoLog::start_sync_record(s, view);
  flight_start = std::chrono::steady_clock::now() - start;
  building ^= 1;
  in_flight = true;
  flight_at = cur;
  flight_seq = sealed[cur] = seq;
  std::swap(flight_index, tls_log_index); // (its keys, for the next record)
  if (awaited)
    finish_flight(); // (strict: a thread waits for it; nothing to overlap)
  if (s.ext)
    drain(); // (its blocks are free memory for the records after it)
  cur = (cur + 1) % ring;
  if (sealed[cur] != 0) {
    if (sealed[cur] > synced_back)
      checkpoint();
    PersistentRedoLog::retire(slots[cur]); // (durable with the next record)
    sealed[cur] = 0;
  }
  slot = slots[cur];
  open_slot();
}

// The next record begins in SLOT, built in the stage of the ring's that is
// free.
void Persister::open_slot() {
  uint64_t keys_before = tls_log_index.nkeys;
  PersistentRedoLog::begin</*Stage=*/false, /*Coarse=*/true>(slot);
  tls_log_index.presize(keys_before); // (records are alike)
  if (in_ring)
    slot.entries = stages[building];
  persist::begin_unit(); // (the next record)
}

// The record in flight durable (its sync finished), the threads waiting for
// its commits told, and written back (nothing synced).
void Persister::finish_flight() {
  if (!in_flight)
    return;
  in_flight = false;
  SlotHandle &s = slots[flight_at];
  auto start = std::chrono::steady_clock::now();
  PersistentRedoLog::sync_record(s);
  sync_time = (3 * sync_time + flight_start +
               (std::chrono::steady_clock::now() - start)) /
              4;
  publish_persisted(std::max(flight_seq, pending));
  PersistentRedoLog::write_back_unfenced(s, delta);
  written_back = flight_seq;
}

// Idle or closing: every write-back synced, every record retired, synced.
// The pool holds no committed record then. Each retired header also takes
// the floor the checkpoint reached: the slots' order is not the records'
// (after a drain the ring goes on from its current slot), so a crash
// between two of these stores, or a power cut that keeps some of their
// pages and not others, could leave an older record sealed above every
// floor while a newer one is idle, and recovery would replay the older one
// over the newer one's data. With its floor in the same line as its idle
// status, the first retired header that reaches the file supersedes every
// record of the ring.
void Persister::drain() {
  finish_flight();
  bool any = false;
  for (unsigned i = 0; i < ring; ++i)
    any |= sealed[i] != 0;
  if (!any)
    return;
  checkpoint();
  for (unsigned i = 0; i < ring; ++i)
    if (sealed[i] != 0) {
      PersistentRedoLog::retire(slots[i], synced_back);
      sealed[i] = 0;
    }
  persist::sync_file();
}

// Group commit: see kMaxGather.
void Persister::gather() {
  uint32_t writers[kMaxGathered];
  uint32_t n = threads_in_state(kWriting, writers, kMaxGathered);
  // (the last round's sharers: only when it had two or more)
  uint32_t late = nsharers >= 2 && nsharers <= kMaxGathered ? nsharers : 0;
  if ((n == 0 && late == 0) || sync_time.count() == 0)
    return;
  auto now = std::chrono::steady_clock::now();
  auto deadline =
      now + std::min<std::chrono::nanoseconds>(sync_time, kMaxGather);
  auto late_deadline =
      now + std::min<std::chrono::nanoseconds>(sync_time / 2, kMaxGather);
  std::unique_lock<std::mutex> lock(m);
  // (no committed thread waits; a thread over its queue budget, a kick or
  // the close: no waiting)
  while (wanted > persisted && !stop && !room_wanted && !kicked) {
    uint32_t left = 0;
    for (uint32_t i = 0; i < n; ++i)
      if (presence[writers[i]].inside.load(std::memory_order_acquire) ==
          kWriting)
        writers[left++] = writers[i];
    n = left;
    now = std::chrono::steady_clock::now();
    left = 0;
    if (now < late_deadline)
      for (uint32_t i = 0; i < late; ++i)
        if (commit_queues[sharers[i]].words_queued.load(
                std::memory_order_acquire) == 0)
          sharers[left++] = sharers[i];
    late = left;
    if ((n == 0 && late == 0) || now >= deadline)
      return;
    auto until = late ? std::min(deadline, late_deadline) : deadline;
    wake.wait_until(lock, std::min(until, now + kGatherPoll));
  }
}

void Persister::add(const QueuedTx &t, bool fresh_written) {
  for (uint64_t w = 0; w < t.words;) {
    Item it = item_at(t.items + w);
    w += it.words();
    if ((it.flags & kFreshBlock) && fresh_written)
      continue;
    auto *addr = reinterpret_cast<unsigned char *>(it.addr);
    uint8_t mask = uint8_t(it.flags);
    if (mask == 0xff) {
      put(addr, it.bytes, it.len);
      continue;
    }
    for (unsigned b = 0; b < 8;) { // a word entry's runs of written bytes
      if (!(mask & (1u << b))) {
        ++b;
        continue;
      }
      unsigned e = b;
      while (e < 8 && (mask & (1u << e)))
        ++e;
      put(addr + b, it.bytes + b, e - b);
      b = e;
    }
  }
}

// Every transaction before T is in the file: the blocks T allocated are free
// memory there, written at once.
void Persister::write_fresh(const QueuedTx &t) {
  for (uint64_t w = 0; w < t.words;) {
    Item it = item_at(t.items + w);
    w += it.words();
    if (!(it.flags & kFreshBlock))
      continue;
    void *pm = reinterpret_cast<void *>(it.addr + delta);
    memcpy(pm, it.bytes, it.len);
    persist::flush_range(pm, it.len);
  }
  persist::sfence();
  if (in_ring)
    persist::sync_file(); // (its fences do not)
}

// Writes txs[0, n) (consecutive sequence numbers) as records of whole
// transactions, each within a slot. A transaction larger than a slot has a
// record of its own that extends into memory free in the file: in the file
// domain, with no other record left to replay over that memory (drained
// before it and after it), and its fresh blocks written and synced first.
void Persister::write_run(size_t n) {
  uint64_t capacity = slot.capacity, last = 0;
  for (size_t i = 0; i < n; ++i) {
    const QueuedTx &t = txs[i];
    uint64_t logged = 0, fresh = 0;
    for (uint64_t w = 0; w < t.words;) {
      Item it = item_at(t.items + w);
      w += it.words();
      (it.flags & kFreshBlock ? fresh : logged) += entries_of(it);
    }
    bool fresh_written = false;
    if (slot.count + logged + fresh > capacity) {
      if (slot.count != 0)
        seal(last);
      if (logged + fresh > capacity) { // (its record extends)
        if (in_ring)
          drain();
        if (fresh != 0) {
          write_fresh(t);
          fresh_written = true;
        }
      }
    }
    if (slot.count == 0)
      record_first = i;
    record_end = i + 1;
    add(t, fresh_written);
    last = t.seq;
    if (in_ring && slot.ext)
      seal(last); // (alone in its record)
  }
  if (slot.count != 0)
    seal(last);
}

uint64_t Persister::round() {
  { // (a thread asking after this point is served by the next round)
    std::lock_guard<std::mutex> lock(m);
    room_wanted = kicked = false;
  }
  txs.clear();
  std::swap(carry, carried);
  carry.clear();
  collect(carried);
  nsharers = 0;
  for (uint32_t i = 0; i < kMaxSlots; ++i) {
    CommitQueue &cq = commit_queues[i];
    if (cq.words_queued.load(std::memory_order_acquire) == 0)
      continue;
    if (nsharers < kMaxGathered)
      sharers[nsharers] = i;
    ++nsharers; // (past kMaxGathered: too many to follow)
    cq.lock();
    std::swap(cq.words, taken[i]);
    cq.words_queued.store(0, std::memory_order_relaxed);
    cq.unlock();
    collect(taken[i]);
  }
  // Threads over their budget go on while this round writes. (A thread
  // that waits checks its queue under M: after the takes, or it is waiting
  // when M is taken here, and the notification reaches it.)
  {
    std::lock_guard<std::mutex> lock(m);
  }
  room.notify_all();
  std::sort(txs.begin(), txs.end(),
            [](const QueuedTx &a, const QueuedTx &b) { return a.seq < b.seq; });
  uint64_t next = recorded + 1;
  size_t n = 0;
  while (n < txs.size() && txs[n].seq == next) {
    ++n;
    ++next;
  }
  if (n != 0)
    write_run(n);
  for (size_t i = n; i < txs.size(); ++i) { // kept for the next round
    size_t at = carry.extend(2 + txs[i].words);
    carry[at] = txs[i].seq;
    carry[at + 1] = txs[i].words;
    memcpy(&carry[at + 2], txs[i].items, txs[i].words * 8);
  }
  // (the buffers go back to the heap: a thread's queue grows again from
  // nothing, and a program whose threads have ended holds none)
  for (auto &q : taken)
    q.release();
  carried.release();
  std::vector<QueuedTx>().swap(txs);
  return recorded = next - 1;
}

void Persister::run() {
  persist::OwnSyncs own(in_ring);
  extensions.p = this;
  LogExtension::set_source(&extensions);
  // (the crash simulator counts its mutations per record: the first from
  // here, each next one from the seal of the one before)
  open_slot();
  for (;;) {
    bool stopping;
    {
      std::unique_lock<std::mutex> lock(m);
      // (in flight only while more commits wait to be written, and no
      // thread waits for durability)
      if (in_flight &&
          (stop || wanted > persisted || !(room_wanted || kicked))) {
        lock.unlock();
        finish_flight();
        lock.lock();
      }
      wake.wait_for(lock, interval, [&] {
        return stop || wanted > persisted || room_wanted || kicked;
      });
      stopping = stop;
    }
    if (PTM_OPT_COMMIT_GATHER && awaited && in_ring && !stopping)
      gather();
    uint64_t before = recorded;
    uint64_t upto = round();
    if (in_flight)
      pending = upto; // (published with the record in flight)
    else
      publish_persisted(upto);
    uint64_t last = commit_seq.load(std::memory_order_acquire);
    if (stopping && upto == last)
      break;
    if (upto == before && upto == last && in_ring)
      drain(); // (idle: the pool left with nothing to replay)
    else if (upto == before)
      sched_yield(); // a commit between its sequence number and its queue
  }
  if (in_ring)
    drain();
}

void *persister_main(void *arg) {
  static_cast<Persister *>(arg)->run();
  return nullptr;
}

} // namespace

void start_persister(unsigned interval_ms, uintptr_t delta, uint64_t first,
                     int fd) {
  if (!persister)
    persister = new Persister(); // (kept: no destructor runs at exit)
  Persister &p = *persister;
  p.stop = false;
  p.wanted = p.persisted = first;
  p.interval = std::chrono::milliseconds(interval_ms);
  p.delta = delta;
  p.fd = fd;
  p.durable.store(first);
  commit_seq.store(first);
  // A ring in the file domain, if the pool has the slots: up to kRing, half
  // of the pool's (the other half for the threads), at least three. A
  // larger ring checkpoints less often: a data page written by the records
  // of a ring is synced, write-protected and faulted back once
  // (results/storage.md: bptree_insert, buffered, 8 -> 32 slots, 1.5x).
  p.in_ring =
      persist::current_domain() == persist::Domain::File && !speculative;
  unsigned want =
      p.in_ring ? std::min(kRing, std::max(3u, open_view.header.slot_count / 2))
                : 1;
  unsigned claimed = 0;
  while (claimed < want && claim_service_slot(p.slots[claimed]))
    ++claimed;
  if (claimed == 0)
    fatal("buffered durability: the pool has no free thread slot for the "
          "persister");
  if (claimed < 3)
    p.in_ring = false;
  p.ring = p.in_ring ? claimed : 1;
  for (unsigned i = 0; i < claimed; ++i) { // (straight to the file)
    SlotHandle &s = p.slots[i];
    s.hdr = reinterpret_cast<SlotHeader *>(reinterpret_cast<uintptr_t>(s.hdr) +
                                           delta);
    s.entries = s.slot_entries = reinterpret_cast<LogEntry *>(
        reinterpret_cast<uintptr_t>(s.slot_entries) + delta);
  }
  for (unsigned i = p.ring; i < claimed; ++i)
    release_service_slot(p.slots[i]);
  p.slot = p.slots[0];
  p.cur = 0;
  if (p.in_ring && p.stage_capacity != p.slot.slot_capacity) {
    size_t bytes = (p.slot.slot_capacity * sizeof(LogEntry) + 63) & ~size_t(63);
    for (LogEntry *&stage : p.stages) {
      free(stage);
      stage = static_cast<LogEntry *>(aligned_alloc(64, bytes));
      if (!stage)
        fatal("buffered durability: no memory for the persister's records "
              "(%zu bytes)",
              bytes);
    }
    p.stage_capacity = p.slot.slot_capacity;
  }
  p.building = 0;
  for (uint64_t &o : p.sealed)
    o = 0;
  p.written_back = p.synced_back = p.recorded = p.pending = first;
  p.in_flight = false;
  if (pthread_create(&p.thread, nullptr, persister_main, &p) != 0)
    fatal("buffered durability: cannot start the persister thread");
  pthread_setname_np(p.thread, "ptm-persister");
}

void stop_persister() {
  Persister &p = *persister;
  {
    std::lock_guard<std::mutex> lock(p.m);
    p.stop = true;
  }
  p.wake.notify_one();
  pthread_join(p.thread, nullptr);
  close(p.fd);
  p.fd = -1;
  if (p.in_ring) {
    p.slots[p.cur] = p.slot;
    for (unsigned i = 0; i < p.ring; ++i)
      release_service_slot(p.slots[i]);
  } else {
    release_service_slot(p.slot);
  }
}

void persister_sync(uint64_t seq) {
  Persister &p = *persister;
  std::unique_lock<std::mutex> lock(p.m);
  if (p.wanted < seq)
    p.wanted = seq;
  p.wake.notify_one();
  p.written.wait(lock, [&] { return p.persisted >= seq; });
}

void persister_wait(uint64_t seq) {
  if (persister->durable.load(std::memory_order_acquire) < seq)
    persister_sync(seq);
}

void persister_take(const std::atomic<uint64_t> &queued, uint64_t budget) {
  Persister &p = *persister;
  std::unique_lock<std::mutex> lock(p.m);
  p.room_wanted = true;
  p.wake.notify_one();
  p.room.wait(lock,
              [&] { return queued.load(std::memory_order_acquire) <= budget; });
}

void persister_kick() {
  Persister &p = *persister;
  {
    std::lock_guard<std::mutex> lock(p.m);
    p.kicked = true;
  }
  p.wake.notify_one();
}

} // namespace pool
} // namespace ptm
