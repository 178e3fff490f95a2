//===- commit_queue.cpp - the buffered commit -----------------------------===//

#include "runtime/pool/commit_queue.h"

#include "runtime/persist/persistent_redo_log.h"
#include "runtime/pool/heap_adapter.h"
#include "runtime/pool/persister.h"

#include <cstring>

namespace ptm {
namespace pool {

extern PoolView open_view; // persistent_pool.h

CommitQueue commit_queues[kMaxSlots];
std::atomic<uint64_t> commit_seq{0};

namespace {

void put_item(GrowBuffer<uint64_t> &q, uint64_t addr, uint64_t len,
              uint32_t flags, const void *bytes) {
  size_t at = q.extend(2 + (len + 7) / 8);
  q[at] = addr;
  q[at + 1] = len | uint64_t(flags) << 32;
  memcpy(&q[at + 2], bytes, len);
}

// The blocks TX allocated in the pool, whole (written unlogged).
void put_allocs(GrowBuffer<uint64_t> &q, const TxThread &tx) {
  for (size_t i = 0; i < tx.allocs.size; ++i) {
    void *p = tx.allocs[i].ptr;
    if (pool_heap && pool_heap->contains(p))
      put_item(q, reinterpret_cast<uint64_t>(p), tx.allocs[i].size,
               kFreshBlock | 0xff, p);
  }
}

// Queues S's transaction with sequence number SEQ: PUT(q) adds its items
// and put_allocs its blocks (TX: none, an empty item).
template <class Put>
void queue_commit(SlotHandle &s, const TxThread *tx, uint64_t seq, Put &&put) {
  CommitQueue &cq = commit_queues[s.index];
  GrowBuffer<uint64_t> &q = cq.words;
  cq.lock();
  size_t head = q.extend(2);
  put(q);
  if (tx)
    put_allocs(q, *tx);
  q[head] = seq;
  q[head + 1] = q.size - head - 2;
  uint64_t queued = q.size;
  cq.words_queued.store(queued, std::memory_order_release);
  cq.unlock();
  s.awaited_seq = seq; // (read only when awaited)
  // (once per crossing: the kick when it reaches kQueueKickWords)
  if (queued > kQueueBudgetWords ||
      (head < kQueueKickWords && queued >= kQueueKickWords))
    s.heap_work = true;
}

uint64_t next_seq() {
  return commit_seq.fetch_add(1, std::memory_order_acq_rel) + 1;
}

// The items of S's redo entries (the pool's data only: DRAM and stack words
// are not the persister's).
void put_entries(GrowBuffer<uint64_t> &q, const SlotHandle &s) {
  for (uint64_t i = 0; i < s.count; i += entry_records(s.entries[i])) {
    const LogEntry &e = s.entries[i];
    EntryKind kind = entry_kind(e);
    uint64_t len = kind == kChunkEntry ? PersistentRedoLog::kChunk : 8;
    if (kind == kPadEntry || !open_view.is_data(e.addr, len))
      continue;
    if (kind == kChunkEntry)
      put_item(q, e.addr, len, 0xff, chunk_bytes(e));
    else
      put_item(q, e.addr, len, uint8_t(e.meta), &e.data);
  }
}

} // namespace

void commit_buffered(SlotHandle &s, TxThread &tx, uintptr_t skip_lo,
                     uintptr_t skip_hi) {
  if (!PersistentRedoLog::write_back_only(s, skip_lo, skip_hi))
    return;
  queue_commit(s, &tx, next_seq(),
               [&](GrowBuffer<uint64_t> &q) { put_entries(q, s); });
  s.count = 0;
  if (__builtin_expect(s.ext != nullptr, 0)) // (queued: the buffer goes)
    LogExtension::release(s);
}

void queue_speculative(SlotHandle &s, TxThread &tx, uint64_t seq,
                       bool entries) {
  queue_commit(s, &tx, seq, [&](GrowBuffer<uint64_t> &q) {
    if (entries)
      put_entries(q, s);
  });
}

void queue_empty(SlotHandle &s, uint64_t seq) {
  queue_commit(s, nullptr, seq, [](GrowBuffer<uint64_t> &) {});
}

void commit_buffered_in_place(SlotHandle &s, TxThread &tx,
                              const SlotLogIndex &written) {
  stat_add(tx.stats->log_entries, written.nkeys);
  if (written.nkeys == 0 && tx.allocs.size == 0)
    return;
  queue_commit(s, &tx, next_seq(), [&](GrowBuffer<uint64_t> &q) {
    for (uint64_t i = 0; i < written.nkeys; ++i) {
      uint64_t a = written.keys[i].key, len = written.keys[i].record;
      if (open_view.is_data(a, len))
        put_item(q, a, len, 0xff, reinterpret_cast<const void *>(a));
    }
  });
}

void wait_for_queue_room(SlotHandle &s) {
  CommitQueue &cq = commit_queues[s.index];
  uint64_t queued = cq.words_queued.load(std::memory_order_acquire);
  if (queued > kQueueBudgetWords)
    persister_take(cq.words_queued, kQueueBudgetWords);
  else if (queued >= kQueueKickWords)
    persister_kick();
}

} // namespace pool
} // namespace ptm
