//===- log_extension.cpp - a transaction's log beyond its slot -----------===//

#include "runtime/persist/log_extension.h"

#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/log_ring.h"
#include "runtime/persist/log_stage.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/persistent_undo_log.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/heap_adapter.h"

#include <cstring>

namespace ptm {

namespace {

[[noreturn]] void out_of_space(const pool::SlotHandle &s, uint64_t records,
                               uint64_t bytes) {
  TxThread &tx = this_thread();
  fatal("the transaction begun at %s needs a log of %llu entries (%llu "
        "bytes), more than its thread slot holds, and the pool's heap has no "
        "free run of that size for the log to extend into: the transaction "
        "did not commit (the pool is as before it once reopened); create a "
        "larger pool (ptm-pool create SIZE, or PTM_POOL_SIZE), free memory "
        "in it, or split the transaction",
        tx.where ? tx.where : "?", (unsigned long long)records,
        (unsigned long long)bytes);
  (void)s;
}

} // namespace

void LogExtension::grow(pool::SlotHandle &s, uint64_t add) {
  uint64_t need = s.count + add;
  uint64_t want = 2 * s.capacity > need ? 2 * s.capacity : need;
  size_t bytes =
      sizeof(pool::LogExtensionHeader) + want * sizeof(pool::LogEntry);
  // (Buffered durability, sp3: the file is written by the persister, whose
  // record holds one slot's entries.)
  if (pool::buffered || pool::library_speculative)
    slot_log_overflow(s);
  size_t got = 0;
  void *block =
      pool::pool_heap ? pool::pool_heap->lend_run(bytes, &got) : nullptr;
  if (!block)
    out_of_space(s, need, bytes);
  auto *h = static_cast<pool::LogExtensionHeader *>(block);
  uint64_t capacity =
      (got - sizeof(pool::LogExtensionHeader)) / sizeof(pool::LogEntry);
  *h = pool::LogExtensionHeader{};
  h->magic = pool::kLogExtMagic;
  h->slot = s.index;
  h->capacity = capacity;
  h->check = pool::extension_check(s.index, capacity);
  auto *entries = reinterpret_cast<pool::LogEntry *>(h + 1);
  memcpy(entries, s.entries, s.count * sizeof(pool::LogEntry));
  // The block whole and durable before the link names it.
  if (!persist::seeded_unflushed_extension())
    persist::flush_range(h, sizeof *h + s.count * sizeof(pool::LogEntry));
  persist::sfence();
  __atomic_store_n(&s.hdr->log_ext,
                   uint64_t(reinterpret_cast<char *>(h) - pool::open_view.base),
                   __ATOMIC_RELEASE);
  persist::clwb(&s.hdr->log_ext);
  persist::sfence();
  pool::LogExtensionHeader *old = s.ext;
  uint64_t old_bytes = s.ext_bytes;
  if (s.stage) // (its copy is in the block: later records are built there)
    LogStage::release(s);
  s.ext = h;
  s.ext_bytes = got;
  s.entries = entries;
  s.capacity = capacity;
  if (old)
    pool::pool_heap->return_run(old, old_bytes);
}

void LogExtension::release(pool::SlotHandle &s) {
  if (!s.ext)
    return;
  __atomic_store_n(&s.hdr->log_ext, uint64_t(0), __ATOMIC_RELEASE);
  persist::clwb(&s.hdr->log_ext);
  persist::sfence();
  pool::pool_heap->return_run(s.ext, s.ext_bytes);
  s.ext = nullptr;
  s.ext_bytes = 0;
  s.entries = LogStage::base(s);
  s.capacity = s.slot_capacity;
}

void LogExtension::retire_ring(pool::SlotHandle &s, uint64_t order) {
  // Its data durable (no other thread flushes them for it: it stays
  // "committing" until they are), then "nothing unflushed".
  LogRing::flush_entries(s.entries, s.count);
  persist::sfence();
  FloorSlot &f = ReplayFloor::slots[s.index];
  f.unflushed.store(ReplayFloor::kNone, std::memory_order_release);
  f.committing.store(0, std::memory_order_release);
  if (s.frees_held)
    s.free_order = order;
  // Record header 0 idle: recovery never reads the block again.
  __atomic_store_n(&s.hdr->status, pool::slot_status(pool::kIdle, s.gen),
                   __ATOMIC_RELEASE);
  persist::clwb(&s.hdr->status);
  persist::sfence();
  s.last_unflushed = false;
  s.wide_order = 0;
  s.part = 1;
  s.count = 0;
  release(s);
}

} // namespace ptm
