//===- log_extension.cpp - a transaction's log beyond its slot -----------===//

#include "runtime/persist/log_extension.h"

#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/log_ring.h"
#include "runtime/persist/log_stage.h"
#include "runtime/persist/persist.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/heap_adapter.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace ptm {

namespace {

// Runs of the open pool's free heap chunks, lent unallocated
// (PersistentHeap::lend_run), linked by their offset in the pool.
struct HeapSource final : ExtensionSource {
  void *lend(size_t bytes, size_t *got) override {
    return pool::pool_heap ? pool::pool_heap->lend_run(bytes, got) : nullptr;
  }
  void give_back(void *block, size_t bytes) override {
    pool::pool_heap->return_run(block, bytes);
  }
  uint64_t link_of(const void *block) const override {
    return uint64_t(static_cast<const char *>(block) - pool::open_view.base);
  }
};

// The process's memory: a transaction's log under buffered durability and
// with sp3, a volatile buffer that the persister writes to the file.
struct MemorySource final : ExtensionSource {
  void *lend(size_t bytes, size_t *got) override {
    *got = (bytes + persist::kLineSize - 1) & ~(persist::kLineSize - 1);
    return aligned_alloc(persist::kLineSize, *got);
  }
  void give_back(void *block, size_t) override { free(block); }
  uint64_t link_of(const void *) const override { return 0; }
};

HeapSource heap_source;
MemorySource memory_source;
__thread ExtensionSource *tls_source;

ExtensionSource &source() {
  if (tls_source)
    return *tls_source;
  if (pool::buffered || pool::library_speculative)
    return memory_source;
  return heap_source;
}

[[noreturn]] void out_of_space(uint64_t records, uint64_t bytes) {
  TxThread &tx = this_thread();
  std::string who = tx.where
                        ? std::string("the transaction begun at ") + tx.where
                        : "a transaction (written by the persister)";
  fatal("%s needs a log of %llu entries (%llu bytes), more than its thread "
        "slot holds, and the pool's heap has no free run of that size for "
        "the log to extend into: the transaction did not commit (the pool is "
        "as before it once reopened); create a larger pool (ptm-pool create "
        "SIZE, or PTM_POOL_SIZE), free memory in it, or split the "
        "transaction",
        who.c_str(), (unsigned long long)records, (unsigned long long)bytes);
}

} // namespace

void LogExtension::set_source(ExtensionSource *s) { tls_source = s; }

void LogExtension::grow(pool::SlotHandle &s, uint64_t add) {
  uint64_t need = s.count + add;
  uint64_t want = 2 * s.capacity > need ? 2 * s.capacity : need;
  size_t bytes =
      sizeof(pool::LogExtensionHeader) + want * sizeof(pool::LogEntry);
  ExtensionSource &src = source();
  size_t got = 0;
  void *block = src.lend(bytes, &got);
  if (!block)
    out_of_space(need, bytes);
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
  if (uint64_t link = src.link_of(h)) {
    // The block whole and durable before the link names it: written back
    // and fenced, and synced by a writer whose fences do not sync the file
    // (the persister's ring, whose record syncs its header's page before
    // its extension's, and whose header page the kernel may write back at
    // any time once the link is stored).
    size_t n = sizeof *h + s.count * sizeof(pool::LogEntry);
    bool seeded = persist::seeded_unflushed_extension();
    if (!seeded)
      persist::flush_range(h, n);
    persist::sfence();
    if (persist::own_syncs && !seeded) {
      persist::Span span{h, n};
      persist::sync_file_pages(&span, 1);
    }
    __atomic_store_n(&s.hdr->log_ext, link, __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->log_ext);
    persist::sfence();
  }
  pool::LogExtensionHeader *old = s.ext;
  uint64_t old_bytes = s.ext_bytes;
  if (s.stage) // (its copy is in the block: later records are built there)
    LogStage::release(s);
  s.ext = h;
  s.ext_bytes = got;
  s.entries = entries;
  s.capacity = capacity;
  if (old)
    src.give_back(old, old_bytes);
}

void LogExtension::release(pool::SlotHandle &s, bool fenced) {
  if (!s.ext)
    return;
  ExtensionSource &src = source();
  if (src.link_of(s.ext) != 0) {
    __atomic_store_n(&s.hdr->log_ext, uint64_t(0), __ATOMIC_RELEASE);
    persist::clwb(&s.hdr->log_ext);
    if (fenced)
      persist::sfence();
  }
  src.give_back(s.ext, s.ext_bytes);
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
