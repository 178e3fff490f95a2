//===- persistent_heap.cpp - the persistent allocator ---------------------===//
//
// Region layout (docs/palloc.md):
//   [0, 4096)            header (plain stores at format, read-only after)
//   [4096, ...)          chunk records, one per chunk, 576 bytes each:
//                          word 0      state (free / small / large head),
//                                      with a check byte
//                          words 1..7  reserved, zero
//                          words 8..71 allocation bitmap (small chunks)
//   [cover, ...)         cover bitmap: a bit per chunk, set for the
//                        continuation chunks of large blocks (whole lines)
//   [data, data+N*64K)   the chunks, data 4096-aligned
// Persistent metadata changes go through the HeapWriter; volatile indexes
// (free-chunk set, per-arena lists of chunks with free blocks, per-chunk
// hints) are hints checked against the metadata read through the writer.
// Deferred reuse is per chunk: a chunk with a free not yet settled, or
// settled with a stamp that has not passed, is skipped by every allocation.
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/persistent_heap.h"

#include "runtime/base/report.h"
#include "runtime/palloc/heap_format.h"
#include "runtime/palloc/heap_impl.h"

#include <cstring>
#include <string>

namespace ptm {

using namespace palloc;

struct PersistentHeap::Header {
  uint64_t magic;
  uint64_t version;
  uint64_t len;
  uint64_t granularity;
  uint64_t chunk_size;
  uint64_t nchunks;
  uint64_t meta_offset;
  uint64_t data_offset;
  uint64_t checksum; // fnv of the words above
};

size_t PersistentHeap::min_region_size() {
  return kHeaderBytes + align_up(kRecordBytes + cover_bytes(1), 4096) + 4096 +
         kChunkSize;
}

PersistentHeap::PersistentHeap() = default;
PersistentHeap::~PersistentHeap() = default;

void PersistentHeap::format(void *base, size_t len, size_t granularity) {
  if (!valid_granularity(granularity))
    fatal("persistent heap: granularity %zu is not 16, 32 or 64", granularity);
  if (len < kHeaderBytes)
    fatal("persistent heap: region of %zu bytes is too small", len);
  uint64_t nchunks = 0, data_offset = 0;
  compute_layout(reinterpret_cast<uintptr_t>(base), len, &nchunks,
                 &data_offset);
  char *b = static_cast<char *>(base);
  memset(b, 0, kHeaderBytes);
  memset(b + kHeaderBytes, 0, nchunks * kRecordBytes + cover_bytes(nchunks));
  Header *h = reinterpret_cast<Header *>(b);
  h->magic = kMagic;
  h->version = kVersion;
  h->len = len;
  h->granularity = granularity;
  h->chunk_size = kChunkSize;
  h->nchunks = nchunks;
  h->meta_offset = kHeaderBytes;
  h->data_offset = data_offset;
  h->checksum = fnv(&h->magic, 8);
}

bool PersistentHeap::attach(void *base, size_t len, std::string *error) {
  header_ = nullptr;
  impl_.reset();
  blocks_lo_ = blocks_hi_ = nullptr;
  auto fail = [&](const std::string &msg) {
    if (error)
      *error = msg;
    return false;
  };
  uintptr_t b = reinterpret_cast<uintptr_t>(base);
  if (!base || b % 64)
    return fail("heap region is not 64-byte aligned");
  if (len < kHeaderBytes)
    return fail("heap region is too small for its header");
  const Header *h = static_cast<const Header *>(base);
  if (h->magic != kMagic)
    return fail("heap header: bad magic (not a formatted heap)");
  if (h->version != kVersion)
    return fail("heap header: version " + std::to_string(h->version) +
                ", expected " + std::to_string(kVersion));
  if (h->checksum != fnv(&h->magic, 8))
    return fail("heap header: checksum mismatch");
  uint64_t nchunks = 0, data_offset = 0;
  compute_layout(b, len, &nchunks, &data_offset);
  if (h->len != len || h->chunk_size != kChunkSize ||
      h->meta_offset != kHeaderBytes || h->nchunks != nchunks ||
      h->data_offset != data_offset || !valid_granularity(h->granularity))
    return fail("heap header: layout does not match the region (length " +
                std::to_string(h->len) + " recorded, " + std::to_string(len) +
                " given)");

  auto impl = std::make_unique<Impl>();
  Impl &m = *impl;
  m.base = static_cast<char *>(base);
  m.len = len;
  m.meta = reinterpret_cast<uint64_t *>(m.base + kHeaderBytes);
  m.cover = m.meta + nchunks * kRecordWords;
  m.data = m.base + data_offset;
  m.nchunks = uint32_t(nchunks);
  m.build_classes(h->granularity);
  m.hints.reset(new Impl::ChunkHint[nchunks ? nchunks : 1]);
  m.arenas.reset(new Impl::Arena[kMaxThreads]);
  m.freeset.assign((nchunks + 63) / 64, 0);
  m.reserved.assign((nchunks + 63) / 64, 0);
  if (!m.check_chunks(error, nullptr))
    return false;
  for (uint32_t ch = 0; ch < m.nchunks; ++ch) {
    uint64_t st = *m.state(ch);
    if (st == 0 && m.covered(ch, m.cover[ch / 64]))
      st = make_cont(0);
    m.hints[ch].state.store(st, std::memory_order_relaxed);
    if (st == 0) {
      m.set_free(ch);
    } else if (kind_of(st) == kSmall) {
      unsigned cls = class_of(st), owner = arena_of(st);
      uint32_t used = 0;
      for (uint32_t wi = 0; wi < m.words_of(cls); ++wi)
        used += __builtin_popcountll(m.bitmap(ch)[wi]);
      m.hints[ch].used.store(used, std::memory_order_relaxed);
      if (used < m.class_blocks[cls]) {
        m.hints[ch].listed.store(Impl::listed_id(owner, cls),
                                 std::memory_order_relaxed);
        m.arenas[owner].avail[cls].push_back(ch);
      }
    }
  }
  granularity_ = h->granularity;
  blocks_lo_ = m.data;
  blocks_hi_ = m.data + (size_t(m.nchunks) << kChunkShift);
  impl_ = std::move(impl);
  header_ = reinterpret_cast<Header *>(base);
  return true;
}

void *PersistentHeap::allocate(size_t size, size_t align, unsigned thread,
                               HeapWriter &w) {
  if (!impl_)
    return nullptr;
  Impl &m = *impl_;
  if (thread >= kMaxThreads)
    fatal("persistent heap: thread slot %u out of range", thread);
  if (align == 0 || align < m.gran)
    align = m.gran;
  if ((align & (align - 1)) || align > kMaxAlign)
    return nullptr;
  if (size == 0)
    size = 1;
  Impl::Held held;
  void *p = nullptr;
  unsigned cls = m.nclasses;
  if (size <= kMaxSmall) {
    cls = m.class_lookup[(size + kMinBlock - 1) / kMinBlock];
    while (cls < m.nclasses && m.class_size[cls] % align)
      ++cls;
  }
  if (cls < m.nclasses)
    p = m.alloc_small(cls, align, thread, w, held);
  else if (size <= (size_t(m.nchunks) << kChunkShift))
    p = m.alloc_large(size, thread, w, held);
  if (!p && held.any)
    w.reuse_blocked(held.until); // (does not return if the writer can wait)
  return p;
}

void PersistentHeap::release(void *ptr, unsigned thread, HeapWriter &w) {
  if (!ptr)
    return;
  if (!impl_)
    fatal("ptm_free(%p): the persistent heap is not attached", ptr);
  if (thread >= kMaxThreads)
    fatal("persistent heap: thread slot %u out of range", thread);
  impl_->release(ptr, thread, w);
}

void PersistentHeap::set_reuse_gate(const ReuseGate *gate) {
  if (impl_)
    impl_->gate = gate ? *gate : ReuseGate{};
}

bool PersistentHeap::has_reservations(unsigned thread) const {
  return impl_ && thread < kMaxThreads &&
         !impl_->arenas[thread].reserved.empty();
}

void PersistentHeap::end_attempt(unsigned thread) {
  if (!impl_ || thread >= kMaxThreads)
    return;
  Impl &m = *impl_;
  std::vector<uint32_t> &v = m.arenas[thread].reserved;
  for (uint32_t ch : v) {
    // (the attempt is over: its state word is committed, or rolled back)
    uint64_t st = *m.state(ch);
    bool free = st == 0 && !m.covered(ch, m.cover[ch / 64]);
    if (free)
      m.hints[ch].state.store(0, std::memory_order_relaxed);
    m.unreserve(ch, free);
  }
  v.clear();
}

void PersistentHeap::settle_frees(unsigned thread, uint64_t stamp) {
  if (impl_ && thread < kMaxThreads)
    impl_->settle(thread, stamp);
}

void PersistentHeap::park_frees(unsigned thread, uint64_t tag) {
  if (impl_ && thread < kMaxThreads)
    impl_->park(thread, tag);
}

void PersistentHeap::settle_parked(unsigned thread, uint64_t upto,
                                   uint64_t stamp) {
  if (impl_ && thread < kMaxThreads)
    impl_->settle_parked(thread, upto, stamp);
}

unsigned PersistentHeap::parked(unsigned thread) const {
  return impl_ && thread < kMaxThreads ? impl_->arenas[thread].parked_count : 0;
}

uint64_t PersistentHeap::oldest_parked_tag(unsigned thread) const {
  if (!parked(thread))
    return 0;
  const Impl::Arena &a = impl_->arenas[thread];
  return a.parked_tag[a.parked_first];
}

uint64_t PersistentHeap::newest_parked_tag(unsigned thread) const {
  if (!parked(thread))
    return 0;
  const Impl::Arena &a = impl_->arenas[thread];
  return a.parked_tag[(a.parked_first + a.parked_count - 1) % kMaxParked];
}

size_t PersistentHeap::usable_size(const void *ptr) const {
  if (!impl_ || !contains(ptr))
    return 0;
  const Impl &m = *impl_;
  size_t off = size_t(static_cast<const char *>(ptr) - m.data);
  uint32_t ch = uint32_t(off >> kChunkShift);
  off &= kChunkSize - 1;
  // The committed state word is authoritative when it is not free (a chunk
  // with a live block cannot change); a free word may be a chunk claimed by
  // the caller's own uncommitted transaction: then the hint knows it.
  uint64_t st = *m.state(ch);
  if (st == 0)
    st = m.hints[ch].state.load(std::memory_order_relaxed);
  if (!sealed(st))
    return 0;
  if (kind_of(st) == kSmall && class_of(st) < m.nclasses) {
    size_t bs = m.class_size[class_of(st)];
    return off % bs == 0 ? bs : 0;
  }
  if (kind_of(st) == kLargeHead && off == 0)
    return size_t(count_of(st)) << kChunkShift;
  return 0;
}

bool PersistentHeap::check(std::string *error) const {
  if (!impl_) {
    if (error)
      *error = "heap is not attached";
    return false;
  }
  const Header *h = header_;
  if (h->magic != kMagic || h->checksum != fnv(&h->magic, 8)) {
    if (error)
      *error = "heap header: damaged (magic or checksum)";
    return false;
  }
  return impl_->check_chunks(error, nullptr);
}

HeapStats PersistentHeap::stats() const {
  HeapStats s{};
  if (impl_) {
    std::string ignored;
    impl_->check_chunks(&ignored, &s);
  }
  return s;
}

} // namespace ptm
