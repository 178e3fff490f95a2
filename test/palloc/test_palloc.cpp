//===- test_palloc.cpp - unit tests of the persistent allocator -----------===//
//
// palloc_tests NAME runs one test (see main). The heap lives in an mmap'd
// region; a test writer stores directly and keeps an undo list, so a test
// can "abort" (undo), "commit" (forget) and "crash" (copy the region bytes
// and roll the copy back with the undo list, as the pool's recovery would).
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/persistent_heap.h"
#include "test/unit/check.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <sys/mman.h>
#include <thread>
#include <utility>
#include <vector>

using ptm::HeapStats;
using ptm::HeapWriter;
using ptm::PersistentHeap;

namespace {

// Direct stores with an undo list: one "transaction" at a time.
struct UndoWriter final : HeapWriter {
  std::vector<std::pair<uint64_t *, uint64_t>> undo;
  uint64_t reads = 0, writes = 0;
  uint64_t read(const uint64_t *addr) override {
    ++reads;
    return *addr;
  }
  void write(uint64_t *addr, uint64_t value) override {
    ++writes;
    undo.emplace_back(addr, *addr);
    *addr = value;
  }
  void commit() { undo.clear(); }
  void abort() {
    for (size_t i = undo.size(); i-- > 0;)
      *undo[i].first = undo[i].second;
    undo.clear();
  }
};

struct Region {
  char *base = nullptr;
  size_t len = 0;
  explicit Region(size_t n) : len(n) {
    void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      perror("mmap");
      exit(1);
    }
    base = static_cast<char *>(p);
  }
  ~Region() { munmap(base, len); }
  Region(const Region &) = delete;
  Region &operator=(const Region &) = delete;
};

bool attach(PersistentHeap &h, Region &r) {
  std::string err;
  bool ok = h.attach(r.base, r.len, &err);
  if (!ok)
    fprintf(stderr, "attach: %s\n", err.c_str());
  return ok;
}

// A heap formatted in a fresh region of N bytes and attached to it.
struct FormattedHeap {
  Region r;
  PersistentHeap h;
  explicit FormattedHeap(
      size_t n, size_t granularity = PersistentHeap::kDefaultGranularity)
      : r(n) {
    PersistentHeap::format(r.base, r.len, granularity);
    CHECK(attach(h, r));
  }
};

// What a crash leaves: a heap attached to a copy of SRC's bytes, after the
// uncommitted writes of UNDO (if given) are rolled back in the copy, as the
// pool's recovery would. DELTA moves a pointer into SRC into the copy.
struct CrashCopy {
  Region r;
  ptrdiff_t delta;
  PersistentHeap h;
  explicit CrashCopy(const Region &src, const UndoWriter *undo = nullptr)
      : r(src.len), delta(r.base - src.base) {
    memcpy(r.base, src.base, src.len);
    if (undo)
      for (size_t i = undo->undo.size(); i-- > 0;) {
        auto *a = reinterpret_cast<uint64_t *>(
            reinterpret_cast<char *>(undo->undo[i].first) + delta);
        *a = undo->undo[i].second;
      }
    CHECK(attach(h, r));
  }
};

bool checked(const PersistentHeap &h) {
  std::string err;
  bool ok = h.check(&err);
  if (!ok)
    fprintf(stderr, "check: %s\n", err.c_str());
  return ok;
}

bool same_stats(const HeapStats &a, const HeapStats &b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

void fill(void *p, size_t n, uint8_t tag) { memset(p, tag, n); }
bool filled(const void *p, size_t n, uint8_t tag) {
  const uint8_t *b = static_cast<const uint8_t *>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i] != tag)
      return false;
  return true;
}

struct Block {
  void *p;
  size_t n;
  uint8_t tag;
};

const size_t kSizes[] = {1,    8,    16,   17,    24,    32,     33,
                         48,   63,   64,   65,    100,   128,    200,
                         255,  256,  300,  500,   512,   700,    1000,
                         1024, 1500, 2048, 3000,  4096,  5000,   6000,
                         7000, 8192, 8193, 65536, 65537, 100000, 1 << 20};

// ---------------------------------------------------------------------------

void test_basic() {
  FormattedHeap heap(64 << 20);
  Region &r = heap.r;
  PersistentHeap &h = heap.h;
  CHECK(checked(h));
  HeapStats s0 = h.stats();
  CHECK(s0.chunks_total > 900);
  CHECK_EQ(s0.blocks_allocated, 0u);
  CHECK_EQ(s0.bytes_free, s0.bytes_total);
  UndoWriter w;
  std::vector<Block> blocks;
  uint8_t tag = 1;
  for (int rep = 0; rep < 3; ++rep)
    for (size_t n : kSizes) {
      void *p = h.allocate(n, 0, 0, w);
      CHECK(p);
      if (!p)
        continue;
      CHECK(h.contains(p));
      CHECK_EQ(reinterpret_cast<uintptr_t>(p) % 16, 0u);
      CHECK(h.usable_size(p) >= n);
      fill(p, h.usable_size(p), tag);
      blocks.push_back({p, h.usable_size(p), tag});
      tag = uint8_t(tag % 250 + 1);
    }
  w.commit();
  for (const Block &b : blocks)
    CHECK(filled(b.p, b.n, b.tag));
  CHECK(checked(h));
  HeapStats s1 = h.stats();
  CHECK_EQ(s1.blocks_allocated, blocks.size());
  uint64_t bytes = 0;
  for (const Block &b : blocks)
    bytes += b.n;
  CHECK_EQ(s1.bytes_allocated, bytes);
  CHECK(!h.contains(r.base));
  CHECK_EQ(h.usable_size(r.base), 0u);
  // Free every other block from another thread's arena, then the rest.
  for (size_t i = 0; i < blocks.size(); i += 2)
    h.release(blocks[i].p, 7, w);
  for (size_t i = 1; i < blocks.size(); i += 2)
    CHECK(filled(blocks[i].p, blocks[i].n, blocks[i].tag));
  for (size_t i = 1; i < blocks.size(); i += 2)
    h.release(blocks[i].p, 0, w);
  h.release(nullptr, 0, w);
  w.commit();
  CHECK(checked(h));
  HeapStats s2 = h.stats();
  CHECK_EQ(s2.blocks_allocated, 0u);
  CHECK_EQ(s2.bytes_allocated, 0u);
  CHECK_EQ(s2.bytes_total, s0.bytes_total);
  // Many blocks of every class: no overlap.
  blocks.clear();
  std::mt19937 rng(1);
  for (int i = 0; i < 20000; ++i) {
    size_t n = 1 + rng() % 3000;
    void *p = h.allocate(n, 0, i % 3, w);
    CHECK(p);
    fill(p, n, uint8_t(i % 251 + 1));
    blocks.push_back({p, n, uint8_t(i % 251 + 1)});
  }
  for (const Block &b : blocks)
    CHECK(filled(b.p, b.n, b.tag));
  for (const Block &b : blocks)
    h.release(b.p, 1, w);
  w.commit();
  CHECK(checked(h));
  CHECK_EQ(h.stats().blocks_allocated, 0u);
}

void test_align() {
  FormattedHeap heap(32 << 20);
  PersistentHeap &h = heap.h;
  UndoWriter w;
  std::vector<Block> blocks;
  for (size_t a = 16; a <= 4096; a *= 2)
    for (size_t n : {size_t(1), size_t(17), size_t(100), size_t(1000),
                     size_t(4096), size_t(5000), size_t(70000)}) {
      for (int k = 0; k < 5; ++k) {
        void *p = h.allocate(n, a, 1, w);
        CHECK(p);
        if (!p)
          continue;
        CHECK_EQ(reinterpret_cast<uintptr_t>(p) % a, 0u);
        CHECK(h.usable_size(p) >= n);
        fill(p, n, uint8_t(blocks.size() % 200 + 1));
        blocks.push_back({p, n, uint8_t(blocks.size() % 200 + 1)});
      }
    }
  CHECK(h.allocate(16, 8192, 0, w) == nullptr);
  CHECK(h.allocate(16, 48, 0, w) == nullptr);
  void *p8 = h.allocate(16, 8, 0, w); // below the granularity: granularity
  CHECK(p8 && reinterpret_cast<uintptr_t>(p8) % 16 == 0);
  h.release(p8, 0, w);
  for (const Block &b : blocks)
    CHECK(filled(b.p, b.n, b.tag));
  for (const Block &b : blocks)
    h.release(b.p, 0, w);
  w.commit();
  CHECK(checked(h));
  CHECK_EQ(h.stats().blocks_allocated, 0u);
}

void test_granularity() {
  for (size_t g : {32, 64}) {
    FormattedHeap heap(16 << 20, g);
    PersistentHeap &h = heap.h;
    CHECK_EQ(h.granularity(), g);
    UndoWriter w;
    std::vector<void *> ps;
    for (size_t n = 1; n <= 9000; n += 7) {
      void *p = h.allocate(n, 0, 0, w);
      CHECK(p);
      CHECK_EQ(reinterpret_cast<uintptr_t>(p) % g, 0u);
      CHECK_EQ(h.usable_size(p) % g, 0u);
      ps.push_back(p);
    }
    for (void *p : ps)
      h.release(p, 0, w);
    w.commit();
    CHECK(checked(h));
  }
}

void test_exhaustion() {
  FormattedHeap heap(2 << 20);
  PersistentHeap &h = heap.h;
  HeapStats s0 = h.stats();
  UndoWriter w;
  auto fill_up = [&](std::vector<void *> &ps) {
    for (;;) {
      void *p = h.allocate(64, 0, 2, w);
      if (!p)
        break;
      ps.push_back(p);
    }
  };
  std::vector<void *> ps;
  fill_up(ps);
  CHECK_EQ(ps.size(), s0.chunks_total * (65536 / 64));
  CHECK(h.allocate(65536, 0, 2, w) == nullptr);
  CHECK(h.allocate(16, 0, 3, w) == nullptr); // other arena, other class
  CHECK(checked(h));
  // Abort all of it: everything is free again, and allocatable again.
  w.abort();
  CHECK(checked(h));
  CHECK(same_stats(h.stats(), s0));
  std::vector<void *> again;
  fill_up(again);
  CHECK_EQ(again.size(), ps.size());
  w.commit();
  // Free all; empty chunks go back (one per class stays with the arena).
  for (void *p : again)
    h.release(p, 1, w);
  w.commit();
  CHECK(checked(h));
  HeapStats s1 = h.stats();
  CHECK_EQ(s1.blocks_allocated, 0u);
  CHECK(s1.chunks_free + 1 >= s0.chunks_total);
  size_t big = (s1.chunks_free) * 65536;
  void *p = h.allocate(big, 0, 0, w);
  CHECK(p);
  CHECK(h.allocate(1, 0, 3, w) == nullptr || s1.chunks_free < s0.chunks_total);
  if (p) {
    CHECK_EQ(h.usable_size(p), big);
    memset(p, 0xab, big);
    h.release(p, 0, w);
  }
  w.commit();
  CHECK(h.allocate(s0.bytes_total + 1, 0, 0, w) == nullptr);
  // A region that holds no chunk.
  FormattedHeap tiny(8192);
  PersistentHeap &t = tiny.h;
  CHECK(t.allocate(16, 0, 0, w) == nullptr);
  CHECK(checked(t));
}

// A large block writes its head's state word and the cover words of its
// continuations: O(chunks/64) metadata words, for the allocation and the
// free (docs/palloc.md, "Large blocks"). Its chunks are never handed out
// to small blocks, an abort or a crash undoes it, and the heap is full
// when it takes every chunk.
void test_large() {
  FormattedHeap heap(96 << 20);
  PersistentHeap &h = heap.h;
  HeapStats s0 = h.stats();
  UndoWriter w;
  void *small = h.allocate(100, 0, 0, w); // the first chunk: small
  w.commit();
  const uint64_t n = 1200; // chunks, 75 MiB
  size_t big = size_t(n) * 65536 - 1000;
  uint64_t words_bound = 1 + ((n - 1) + 63) / 64 + 1;
  w.writes = 0;
  void *p = h.allocate(big, 0, 1, w);
  CHECK(p);
  CHECK(w.writes <= words_bound);
  CHECK(w.writes >= 1 + (n - 1) / 64);
  fprintf(stderr, "  %llu chunks: %llu metadata writes (bound %llu)\n",
          (unsigned long long)n, (unsigned long long)w.writes,
          (unsigned long long)words_bound);
  CHECK(checked(h));
  CHECK_EQ(h.usable_size(p), size_t(n) * 65536);
  CHECK_EQ(h.usable_size(static_cast<char *>(p) + 65536), 0u);
  // Abort: the chunks are free again, a new allocation gets them.
  w.abort();
  CHECK(checked(h));
  CHECK_EQ(h.stats().chunks_free, s0.chunks_free - 1);
  void *q = h.allocate(big, 0, 1, w);
  CHECK(q == p);
  // A crash before the commit loses it; after, keeps it.
  {
    CrashCopy lost(heap.r, &w);
    CHECK(checked(lost.h));
    CHECK_EQ(lost.h.stats().large_blocks, 0u);
  }
  w.commit();
  {
    CrashCopy kept(heap.r);
    CHECK(checked(kept.h));
    CHECK_EQ(kept.h.stats().large_blocks, 1u);
    CHECK_EQ(kept.h.stats().chunks_large, n);
    CHECK_EQ(kept.h.usable_size(static_cast<char *>(q) + kept.delta),
             size_t(n) * 65536);
    // The reopened heap knows the block's chunks from its metadata alone.
    char *klo = static_cast<char *>(q) + kept.delta;
    char *khi = klo + size_t(n) * 65536;
    UndoWriter kw;
    size_t got = 0;
    while (void *b = kept.h.allocate(8192, 0, 4, kw)) {
      CHECK(static_cast<char *>(b) + 8192 <= klo || b >= khi);
      ++got;
    }
    CHECK_EQ(got, (s0.chunks_total - n - 1) * 8);
    CHECK(checked(kept.h));
  }
  // Small blocks fill every other chunk and never land in the block.
  char *lo = static_cast<char *>(q), *hi = lo + size_t(n) * 65536;
  std::vector<void *> smalls;
  for (;;) {
    void *b = h.allocate(4096, 0, 2, w);
    if (!b)
      break;
    CHECK(static_cast<char *>(b) + 4096 <= lo || b >= hi);
    smalls.push_back(b);
  }
  w.commit();
  CHECK_EQ(smalls.size(), (s0.chunks_total - n - 1) * 16);
  CHECK(h.allocate(65536, 0, 3, w) == nullptr);
  CHECK(checked(h));
  // Free the block: as few writes; then its chunks make the same block
  // again (first fit), and only whole free chunks are counted free.
  w.writes = 0;
  h.set_reuse_gate(nullptr);
  h.release(q, 1, w);
  CHECK(w.writes <= words_bound);
  w.commit();
  CHECK(checked(h));
  for (void *b : smalls)
    h.release(b, 2, w);
  w.commit();
  CHECK(checked(h));
  CHECK(h.stats().chunks_free >= n);
  void *again = h.allocate(big, 0, 0, w);
  CHECK(again == q);
  w.commit();
  CHECK(checked(h));
  h.release(again, 0, w);
  h.release(small, 0, w);
  w.commit();
  CHECK(checked(h));
  CHECK_EQ(h.stats().blocks_allocated, 0u);
}

void test_abort() {
  FormattedHeap heap(16 << 20);
  PersistentHeap &h = heap.h;
  UndoWriter w;
  std::vector<Block> kept;
  for (size_t i = 0; i < 300; ++i) {
    size_t n = kSizes[i % (sizeof kSizes / sizeof *kSizes - 2)];
    void *p = h.allocate(n, 0, 0, w);
    fill(p, n, uint8_t(i % 200 + 1));
    kept.push_back({p, n, uint8_t(i % 200 + 1)});
  }
  w.commit();
  HeapStats before = h.stats();
  for (int round = 0; round < 20; ++round) {
    // A transaction allocates, frees committed blocks, then aborts.
    std::vector<void *> fresh;
    for (int i = 0; i < 500; ++i)
      fresh.push_back(
          h.allocate(16 + (i * 37) % 3000 + round * 1000, 0, round % 2, w));
    fresh.push_back(h.allocate(200000, 0, 0, w));
    for (size_t i = round % 3; i < kept.size(); i += 3)
      h.release(kept[i].p, round % 4, w);
    for (size_t i = 0; i < fresh.size(); i += 2)
      h.release(fresh[i], 0, w);
    w.abort();
    CHECK(checked(h));
    CHECK(same_stats(h.stats(), before));
    for (const Block &b : kept)
      CHECK_EQ(h.usable_size(b.p) >= b.n, true);
  }
  // After the aborts, new blocks never overlap the kept ones.
  std::vector<Block> more;
  for (int i = 0; i < 3000; ++i) {
    size_t n = 16 + (i * 53) % 5000;
    void *p = h.allocate(n, 0, i % 2, w);
    CHECK(p);
    fill(p, n, 0xee);
    more.push_back({p, n, 0xee});
  }
  w.commit();
  for (const Block &b : kept)
    CHECK(filled(b.p, b.n, b.tag));
  for (const Block &b : more)
    h.release(b.p, 0, w);
  for (const Block &b : kept)
    h.release(b.p, 0, w);
  w.commit();
  CHECK(checked(h));
  CHECK_EQ(h.stats().blocks_allocated, 0u);
}

void test_crash() {
  FormattedHeap heap(64 << 20);
  Region &r = heap.r;
  PersistentHeap &h = heap.h;
  UndoWriter w;
  std::vector<void *> live;
  for (int i = 0; i < 2000; ++i)
    live.push_back(h.allocate(1 + (i * 97) % 10000, 0, i % 4, w));
  live.push_back(h.allocate(300000, 0, 1, w));
  for (size_t i = 0; i < live.size(); i += 5)
    h.release(live[i], 0, w);
  w.commit();
  HeapStats committed = h.stats();

  // A clean copy re-attaches with identical stats.
  {
    CrashCopy copy(r);
    CHECK(checked(copy.h));
    CHECK(same_stats(copy.h.stats(), committed));
  }
  // A crash in the middle of a transaction: the copy has the uncommitted
  // writes in place; recovery undoes them (the pool's undo log).
  for (int i = 0; i < 700; ++i)
    h.allocate(1 + (i * 31) % 20000, 0, 2, w);
  for (size_t i = 1; i < live.size(); i += 5)
    h.release(live[i], 3, w);
  {
    CrashCopy copy(r, &w);
    CHECK(checked(copy.h));
    CHECK(same_stats(copy.h.stats(), committed));
    // Without recovery the copy is still consistent (the transaction's
    // allocations look committed), just different.
  }
  w.commit();
  HeapStats after = h.stats();
  CrashCopy copy(r);
  PersistentHeap &h3 = copy.h;
  CHECK(same_stats(h3.stats(), after));
  // The re-attached heap allocates without overlapping the live blocks.
  UndoWriter w3;
  for (int i = 0; i < 1000; ++i) {
    void *p = h3.allocate(1 + (i * 13) % 9000, 0, i % 4, w3);
    CHECK(p);
  }
  w3.commit();
  CHECK(checked(h3));
  CHECK_EQ(h3.stats().blocks_allocated, after.blocks_allocated + 1000);
}

// Deferred reuse with a test gate: stamps below `reuse_passed` have passed;
// the current epoch is `reuse_now`. A writer records what a request blocked on.
uint64_t reuse_passed = 0, reuse_now = 1;
bool test_passed(uint64_t stamp) { return stamp < reuse_passed; }
uint64_t test_now() { return reuse_now; }
const ptm::ReuseGate kTestGate{&test_passed, &test_now};

struct BlockingWriter final : HeapWriter {
  UndoWriter inner;
  int blocked = 0;
  uint64_t stamp = 0;
  uint64_t read(const uint64_t *addr) override { return inner.read(addr); }
  void write(uint64_t *addr, uint64_t value) override {
    inner.write(addr, value);
  }
  void reuse_blocked(uint64_t s) override {
    ++blocked;
    stamp = s;
  }
};

void test_reuse() {
  FormattedHeap heap(2 << 20);
  Region &r = heap.r;
  PersistentHeap &h = heap.h;
  h.set_reuse_gate(&kTestGate);
  BlockingWriter w;
  std::vector<void *> ps;
  for (void *p; (p = h.allocate(64, 0, 2, w));)
    ps.push_back(p);
  w.inner.commit();
  CHECK(ps.size() > 100);
  CHECK_EQ(w.blocked, 0);

  // Arena 1 frees two blocks of arena 2's chunks (a cross-thread free),
  // in two transactions; the heap is otherwise full.
  void *x = ps[10], *y = ps.back();
  h.release(x, 1, w);
  w.inner.commit();
  // Not settled yet (the freeing transaction has not left): held back, and
  // the request waits for at least the current epoch.
  reuse_now = 5;
  CHECK(h.allocate(64, 0, 2, w) == nullptr);
  CHECK_EQ(w.blocked, 1);
  CHECK_EQ(w.stamp, 5u);
  h.settle_frees(1, 5);
  h.release(y, 1, w);
  w.inner.commit();
  h.settle_frees(1, 9);
  reuse_now = 10;
  // Neither stamp has passed: nothing to allocate, wait for the later one.
  CHECK(h.allocate(64, 0, 3, w) == nullptr);
  CHECK_EQ(w.blocked, 2);
  CHECK_EQ(w.stamp, 9u);
  CHECK(checked(h));
  HeapStats held = h.stats();
  CHECK_EQ(held.blocks_allocated, ps.size() - 2);

  // A crash now loses nothing: the frees are committed, the holding back
  // is volatile, so a heap attached to the same bytes reuses both at once.
  {
    CrashCopy copy(r);
    ptrdiff_t delta = copy.delta;
    PersistentHeap &h2 = copy.h;
    h2.set_reuse_gate(&kTestGate);
    CHECK(same_stats(h2.stats(), held));
    BlockingWriter w2;
    void *a = h2.allocate(64, 0, 2, w2), *b = h2.allocate(64, 0, 2, w2);
    CHECK(a && b);
    CHECK(a == static_cast<char *>(x) + delta ||
          a == static_cast<char *>(y) + delta);
    CHECK(b == static_cast<char *>(x) + delta ||
          b == static_cast<char *>(y) + delta);
    CHECK_EQ(w2.blocked, 0);
  }

  // X's stamp passes, Y's does not: X is handed out, then the heap waits
  // for Y's stamp.
  reuse_passed = 6;
  CHECK(h.allocate(64, 0, 2, w) == x);
  CHECK(h.allocate(64, 0, 2, w) == nullptr);
  CHECK_EQ(w.stamp, 9u);
  reuse_passed = 10;
  CHECK(h.allocate(64, 0, 2, w) == y);
  w.inner.commit();
  CHECK_EQ(w.blocked, 3);

  // A large block: its chunks are held back until its stamp has passed.
  for (void *p : ps)
    h.release(p, 0, w);
  w.inner.commit();
  h.settle_frees(0, 20);
  reuse_passed = 21;
  HeapStats empty = h.stats();
  CHECK_EQ(empty.blocks_allocated, 0u);
  size_t big = (empty.chunks_free - 2) * 65536;
  void *l = h.allocate(big, 0, 0, w);
  CHECK(l);
  w.inner.commit();
  h.release(l, 1, w);
  w.inner.commit();
  h.settle_frees(1, 30);
  CHECK(h.allocate(big, 0, 0, w) == nullptr);
  CHECK_EQ(w.stamp, 30u);
  reuse_passed = 31;
  CHECK(h.allocate(big, 0, 0, w) == l);
  w.inner.commit();
  CHECK(checked(h));

  // Without a gate (the tools), a free is reusable at once.
  h.set_reuse_gate(nullptr);
  h.release(l, 1, w);
  w.inner.commit();
  CHECK(h.allocate(big, 0, 0, w) == l);
  w.inner.commit();
  CHECK(checked(h));
}

// Parked frees (the log ring's: settled once a replay floor passes the
// commit that freed, runtime/pool/freed_blocks.h): held back until
// settle_parked reaches their tag, oldest first, then like settled ones.
void test_parked_frees() {
  FormattedHeap heap(2 << 20);
  PersistentHeap &h = heap.h;
  reuse_passed = 0;
  reuse_now = 1;
  h.set_reuse_gate(&kTestGate);
  BlockingWriter w;
  std::vector<void *> ps;
  for (void *p; (p = h.allocate(64, 0, 2, w));)
    ps.push_back(p);
  w.inner.commit();
  CHECK(ps.size() > 100);
  CHECK_EQ(h.parked(1), 0u);
  CHECK_EQ(h.newest_parked_tag(1), 0u);

  // Three commits of arena 1 free a block each and park it behind their
  // orders 7, 8, 9; a park with nothing freed since parks nothing.
  void *freed[3] = {ps[3], ps[40], ps.back()};
  for (unsigned i = 0; i < 3; ++i) {
    h.release(freed[i], 1, w);
    w.inner.commit();
    h.park_frees(1, 7 + i);
  }
  h.park_frees(1, 10);
  CHECK_EQ(h.parked(1), 3u);
  CHECK_EQ(h.oldest_parked_tag(1), 7u);
  CHECK_EQ(h.newest_parked_tag(1), 9u);
  // Held, whatever the epoch: not settled.
  reuse_passed = 100;
  reuse_now = 100;
  CHECK(h.allocate(64, 0, 2, w) == nullptr);
  CHECK_EQ(w.blocked, 1);
  // The floor passes 8: the first two settled (stamp 50, passed), the
  // third still held.
  h.settle_parked(1, 8, 50);
  CHECK_EQ(h.parked(1), 1u);
  CHECK_EQ(h.oldest_parked_tag(1), 9u);
  void *a = h.allocate(64, 0, 2, w), *b = h.allocate(64, 0, 2, w);
  CHECK((a == freed[0] && b == freed[1]) || (a == freed[1] && b == freed[0]));
  CHECK(h.allocate(64, 0, 2, w) == nullptr);
  w.inner.commit();
  // At most kMaxParked batches, a ring: fill it past its start.
  h.settle_parked(1, 9, 60);
  CHECK_EQ(h.parked(1), 0u);
  CHECK(h.allocate(64, 0, 2, w) == freed[2]);
  w.inner.commit();
  for (unsigned i = 0; i < PersistentHeap::kMaxParked; ++i) {
    h.release(ps[50 + i], 1, w);
    w.inner.commit();
    h.park_frees(1, 20 + i);
  }
  CHECK_EQ(h.parked(1), PersistentHeap::kMaxParked);
  CHECK_EQ(h.newest_parked_tag(1), 20u + PersistentHeap::kMaxParked - 1);
  h.settle_parked(1, ~uint64_t(0), 70);
  CHECK_EQ(h.parked(1), 0u);
  for (unsigned i = 0; i < PersistentHeap::kMaxParked; ++i)
    CHECK(h.allocate(64, 0, 2, w) != nullptr);
  w.inner.commit();
  CHECK(checked(h));
}

void test_corrupt() {
  FormattedHeap heap(8 << 20);
  Region &r = heap.r;
  PersistentHeap &h = heap.h;
  UndoWriter w;
  void *a = h.allocate(48, 0, 0, w);     // class 48: 1365 blocks per chunk
  void *b = h.allocate(200000, 0, 1, w); // large: 4 chunks
  CHECK(a && b);
  w.commit();
  CHECK(checked(h));
  // Chunk records follow the 4096-byte header, 576 bytes each.
  auto record = [&](uint32_t ch) {
    return reinterpret_cast<uint64_t *>(r.base + 4096 + size_t(ch) * 576);
  };
  uint32_t cha = 0; // the first claimed chunk
  CHECK(record(cha)[0] != 0);
  auto expect_damage = [&](uint64_t *word, uint64_t bit, const char *what) {
    *word ^= bit;
    std::string err;
    CHECK(!h.check(&err));
    PersistentHeap h2;
    CHECK(!h2.attach(r.base, r.len, &err));
    fprintf(stderr, "  %s: %s\n", what, err.c_str());
    *word ^= bit;
    CHECK(checked(h));
  };
  for (int bit = 0; bit < 64; ++bit)
    expect_damage(&record(cha)[0], uint64_t(1) << bit, "small state bit");
  // Bit 1365 = word 21 bit 21 is beyond the 48-byte class's blocks.
  expect_damage(&record(cha)[8 + 21], uint64_t(1) << 21, "bitmap tail bit");
  expect_damage(&record(cha)[8 + 63], 1, "bitmap word past the class");
  expect_damage(&record(cha)[3], 1, "reserved word");
  // The large block's head and a continuation.
  uint32_t chb = 0;
  while (chb < 100 && (record(chb)[0] & 0xff) != 2)
    ++chb;
  CHECK(chb < 100);
  for (int bit = 0; bit < 64; bit += 5)
    expect_damage(&record(chb)[0], uint64_t(1) << bit, "large head bit");
  expect_damage(&record(chb + 2)[0], uint64_t(1) << 30, "continuation bit");
  expect_damage(&record(chb + 2)[0], ~uint64_t(0), "continuation word");
  expect_damage(&record(chb + 1)[8], 4, "bitmap bit in a large chunk");
  // The cover bitmap follows the records: a continuation's bit cleared, a
  // bit set for a small chunk, a free chunk, the head, past the last chunk.
  uint64_t nch = h.stats().chunks_total;
  uint64_t *cover = record(uint32_t(nch));
  auto cover_bit = [&](uint64_t ch) {
    return std::make_pair(&cover[ch / 64], uint64_t(1) << (ch % 64));
  };
  CHECK(*cover_bit(chb + 2).first & cover_bit(chb + 2).second);
  expect_damage(cover_bit(chb + 2).first, cover_bit(chb + 2).second,
                "continuation's cover bit");
  expect_damage(cover_bit(chb).first, cover_bit(chb).second,
                "head's cover bit");
  expect_damage(cover_bit(cha).first, cover_bit(cha).second,
                "small chunk's cover bit");
  expect_damage(cover_bit(chb + 10).first, cover_bit(chb + 10).second,
                "free chunk's cover bit");
  expect_damage(cover_bit(nch).first, cover_bit(nch).second,
                "cover bit past the last chunk");
  // A free chunk.
  expect_damage(&record(chb + 10)[0], uint64_t(1) << 9, "free state bit");
  expect_damage(&record(chb + 10)[8 + 5], 1, "free chunk bitmap bit");
  // The header.
  uint64_t *hdr = reinterpret_cast<uint64_t *>(r.base);
  for (int word = 0; word < 9; ++word) {
    hdr[word] ^= 2;
    std::string err;
    PersistentHeap h2;
    CHECK(!h2.attach(r.base, r.len, &err));
    fprintf(stderr, "  header word %d: %s\n", word, err.c_str());
    hdr[word] ^= 2;
  }
  std::string err;
  PersistentHeap h2;
  CHECK(!h2.attach(r.base, r.len - 65536, &err));
  fprintf(stderr, "  wrong length: %s\n", err.c_str());
  CHECK(attach(h2, r));
}

// ---- multi-thread stress with a two-phase-locking writer -------------------
//
// Each "transaction" locks (exclusively) the stripe of every word it reads or
// writes; a stripe held by another thread is a conflict: the writer throws,
// the transaction undoes its writes and retries, just as a TM would abort
// from inside a barrier (in the middle of an allocator call).

struct Conflict {};

struct Stripes {
  static constexpr size_t kN = 4096;
  std::atomic<int> owner[kN];
  Stripes() {
    for (auto &o : owner)
      o.store(-1);
  }
  size_t of(const void *a) const {
    return (reinterpret_cast<uintptr_t>(a) >> 3) % kN;
  }
};

struct LockingWriter final : HeapWriter {
  Stripes &s;
  int me;
  std::vector<std::pair<uint64_t *, uint64_t>> undo;
  std::vector<size_t> held;
  std::mt19937 rng;
  unsigned inject = 0; // 1 in INJECT writer calls aborts
  uint64_t conflicts = 0, injected = 0;
  LockingWriter(Stripes &st, int id) : s(st), me(id), rng(id) {}
  void lock(const void *a) {
    size_t i = s.of(a);
    int cur = s.owner[i].load(std::memory_order_acquire);
    if (cur == me)
      return;
    int expect = -1;
    if (!s.owner[i].compare_exchange_strong(expect, me,
                                            std::memory_order_acquire)) {
      ++conflicts;
      throw Conflict{};
    }
    held.push_back(i);
  }
  void maybe_inject() {
    if (inject && rng() % inject == 0) {
      ++injected;
      throw Conflict{};
    }
  }
  uint64_t read(const uint64_t *addr) override {
    maybe_inject();
    lock(addr);
    return *addr;
  }
  void write(uint64_t *addr, uint64_t value) override {
    maybe_inject();
    lock(addr);
    undo.emplace_back(addr, *addr);
    *addr = value;
  }
  void unlock_all() {
    for (size_t i : held)
      s.owner[i].store(-1, std::memory_order_release);
    held.clear();
  }
  void commit() {
    undo.clear();
    unlock_all();
  }
  void abort() {
    for (size_t i = undo.size(); i-- > 0;)
      *undo[i].first = undo[i].second;
    undo.clear();
    unlock_all();
  }
};

template <class F> void run_tx(LockingWriter &w, F body) {
  for (unsigned attempt = 0;; ++attempt) {
    try {
      body();
      w.commit();
      return;
    } catch (Conflict &) {
      w.abort();
      if (attempt > 4)
        std::this_thread::yield();
    }
  }
}

// REGION bytes; a small region makes allocations fail at times (the heap is
// full), which exercises the resync and steal paths under concurrency.
void stress(size_t region, bool may_fill) {
  FormattedHeap heap(region);
  Region &r = heap.r;
  PersistentHeap &h = heap.h;
  Stripes stripes;
  constexpr int kThreads = 4;
  constexpr int kOps = 60000;
  std::mutex xmu;
  std::vector<Block> exchange; // blocks handed to other threads to free
  std::atomic<int> bad{0};
  std::atomic<int> full{0};
  std::atomic<uint64_t> live_total{0};
  std::vector<std::vector<Block>> remaining(kThreads);

  auto worker = [&](int t) {
    LockingWriter w(stripes, t);
    w.inject = 50;
    std::mt19937 rng(t * 7919 + 1);
    std::vector<Block> mine;
    for (int op = 0; op < kOps; ++op) {
      unsigned dice = rng() % 100;
      if (dice < 55 || mine.empty()) {
        size_t n = rng() % 4 == 0 ? 1 + rng() % 9000 : 1 + rng() % 300;
        if (rng() % 500 == 0)
          n = 70000 + rng() % 200000;
        size_t align = rng() % 8 == 0 ? size_t(16) << (rng() % 9) : 0;
        void *p = nullptr;
        run_tx(w, [&] {
          p = h.allocate(n, align, unsigned(t), w);
          // Sometimes two allocations in one transaction.
          if (p && rng() % 4 == 0) {
            void *q = h.allocate(32, 0, unsigned(t), w);
            if (q)
              h.release(q, unsigned(t), w);
          }
        });
        if (!p) {
          if (!may_fill)
            ++bad;
          else
            ++full;
          continue;
        }
        if (align && reinterpret_cast<uintptr_t>(p) % align)
          ++bad;
        uint8_t tag = uint8_t(t * 60 + op % 59 + 1);
        fill(p, n, tag);
        Block b{p, n, tag};
        if (rng() % 4 == 0) {
          std::lock_guard<std::mutex> g(xmu);
          exchange.push_back(b);
        } else {
          mine.push_back(b);
        }
      } else {
        Block b{};
        bool have = false;
        if (dice < 70) {
          std::lock_guard<std::mutex> g(xmu);
          if (!exchange.empty()) {
            size_t i = rng() % exchange.size();
            b = exchange[i];
            exchange[i] = exchange.back();
            exchange.pop_back();
            have = true;
          }
        }
        if (!have) {
          size_t i = rng() % mine.size();
          b = mine[i];
          mine[i] = mine.back();
          mine.pop_back();
        }
        if (!filled(b.p, b.n, b.tag))
          ++bad;
        run_tx(w, [&] { h.release(b.p, unsigned(t), w); });
      }
    }
    for (const Block &b : mine)
      if (!filled(b.p, b.n, b.tag))
        ++bad;
    live_total += mine.size();
    remaining[t] = std::move(mine);
    fprintf(stderr, "  thread %d: %llu conflicts, %llu injected aborts\n", t,
            (unsigned long long)w.conflicts, (unsigned long long)w.injected);
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < kThreads; ++t)
    ts.emplace_back(worker, t);
  for (auto &th : ts)
    th.join();
  CHECK_EQ(bad.load(), 0);
  if (may_fill)
    fprintf(stderr, "  %d allocations found the heap full\n", full.load());
  for (const Block &b : exchange)
    CHECK(filled(b.p, b.n, b.tag));
  CHECK(checked(h));
  CHECK_EQ(h.stats().blocks_allocated, live_total.load() + exchange.size());
  // Everything freed: the heap is empty, and a re-attach agrees.
  LockingWriter w(stripes, 0);
  for (auto &v : remaining)
    for (const Block &b : v)
      run_tx(w, [&] { h.release(b.p, 0, w); });
  for (const Block &b : exchange)
    run_tx(w, [&] { h.release(b.p, 0, w); });
  CHECK(checked(h));
  CHECK_EQ(h.stats().blocks_allocated, 0u);
  PersistentHeap h2;
  CHECK(attach(h2, r));
  CHECK(same_stats(h2.stats(), h.stats()));
}

void test_stress() { stress(256 << 20, false); }
void test_stress_full() { stress(12 << 20, true); }

// ---- a small benchmark (reported, never asserted) --------------------------

void test_bench() {
  FormattedHeap heap(512 << 20);
  PersistentHeap &h = heap.h;
  UndoWriter w;
  std::vector<void *> ps(1000000);
  for (size_t n : {16, 64, 256, 1024}) {
    const int kN = int(std::min<size_t>(ps.size(), (256u << 20) / n));
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kN; ++i) {
      ps[i] = h.allocate(n, 0, 0, w);
      w.commit();
    }
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 0; i < kN; ++i) {
      h.release(ps[i], 0, w);
      w.commit();
    }
    auto t2 = std::chrono::steady_clock::now();
    double a = std::chrono::duration<double>(t1 - t0).count();
    double f = std::chrono::duration<double>(t2 - t1).count();
    w.reads = w.writes = 0;
    for (int i = 0; i < 1000; ++i)
      ps[i] = h.allocate(n, 0, 0, w);
    double rpa = w.reads / 1000.0, wpa = w.writes / 1000.0;
    for (int i = 0; i < 1000; ++i)
      h.release(ps[i], 0, w);
    w.commit();
    printf("palloc bench size=%zu allocs_per_s=%.0f frees_per_s=%.0f "
           "meta_reads_per_alloc=%.2f meta_writes_per_alloc=%.2f\n",
           n, kN / a, kN / f, rpa, wpa);
  }
  CHECK(checked(h));
}

// A transaction's writes, buffered until commit (a lazy TM's redo log):
// other writers read memory, where they are not yet.
struct RedoWriter final : HeapWriter {
  std::vector<std::pair<uint64_t *, uint64_t>> redo;
  uint64_t read(const uint64_t *addr) override {
    for (size_t i = redo.size(); i-- > 0;)
      if (redo[i].first == addr)
        return redo[i].second;
    return *addr;
  }
  void write(uint64_t *addr, uint64_t value) override {
    redo.emplace_back(addr, value);
  }
  bool in_transaction() const override { return true; }
  void commit() {
    for (auto &e : redo)
      *e.first = e.second;
    redo.clear();
  }
  void abort() { redo.clear(); }
};

bool overlaps(const void *a, size_t na, const void *b, size_t nb) {
  auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
  return x < y + nb && y < x + na;
}

// Chunks taken by a transaction in flight stay its own until it ends
// (PersistentHeap::end_attempt): its state words still read free to the
// others, and it writes the memory in place at once, so another
// transaction that took the same chunks (e.g. after a resync, which rebuilds
// the free set from the metadata) would write the same memory. Transaction
// A takes a large block and a chunk of a size class and does not commit;
// B (another arena) allocates until the heap is full: nothing of B's may
// overlap A's memory. A's abort gives its chunks back; a commit keeps them.
void test_inflight() {
  constexpr size_t kChunk = size_t(1) << 16;
  FormattedHeap fh(24 * kChunk);
  PersistentHeap &h = fh.h;
  uint64_t chunks = h.stats().chunks_total;
  CHECK(chunks >= 8);
  RedoWriter a, b;
  void *big = h.allocate(2 * kChunk, 0, 0, a);
  void *small = h.allocate(64, 0, 0, a);
  CHECK(big && small);
  CHECK(h.has_reservations(0));
  std::vector<std::pair<void *, size_t>> got;
  for (int i = 0; i < 1000; ++i) {
    size_t n = i % 2 ? 2 * kChunk : 64;
    void *p = h.allocate(n, 0, 1, b);
    if (!p && n == 64)
      break;
    if (p) {
      got.emplace_back(p, n);
      b.commit();
      h.end_attempt(1);
    }
  }
  size_t hits = 0;
  for (auto &g : got)
    hits += overlaps(g.first, g.second, big, 2 * kChunk) ||
            overlaps(g.first, g.second, small, 64) ||
            (g.second == 64 && (reinterpret_cast<uintptr_t>(g.first) >> 16) ==
                                   (reinterpret_cast<uintptr_t>(small) >> 16));
  CHECK_EQ(hits, size_t(0));
  CHECK(!got.empty());
  // A aborts: its chunks are free again, B gets the large run.
  a.abort();
  h.end_attempt(0);
  CHECK(!h.has_reservations(0));
  void *again = h.allocate(2 * kChunk, 0, 1, b);
  CHECK(again != nullptr);
  b.commit();
  h.end_attempt(1);
  // A commits a block: it stays allocated after its reservation ends.
  void *kept = nullptr;
  for (auto &g : got)
    if (g.second == 2 * kChunk) {
      h.release(g.first, 1, b);
      b.commit();
      break;
    }
  kept = h.allocate(2 * kChunk, 0, 0, a);
  CHECK(kept != nullptr);
  a.commit();
  h.end_attempt(0);
  void *other = h.allocate(2 * kChunk, 0, 1, b);
  CHECK(other == nullptr || !overlaps(other, 2 * kChunk, kept, 2 * kChunk));
  b.abort();
  h.end_attempt(1);
  printf("inflight: %zu allocations of another transaction, none in the "
         "memory of one in flight\n",
         got.size());
}

} // namespace

int main(int argc, char **argv) {
  struct {
    const char *name;
    void (*fn)();
  } tests[] = {{"basic", test_basic},
               {"align", test_align},
               {"granularity", test_granularity},
               {"exhaustion", test_exhaustion},
               {"large", test_large},
               {"abort", test_abort},
               {"crash", test_crash},
               {"reuse", test_reuse},
               {"parked-frees", test_parked_frees},
               {"corrupt", test_corrupt},
               {"stress", test_stress},
               {"stress-full", test_stress_full},
               {"inflight", test_inflight},
               {"bench", test_bench}};
  int ran = 0;
  for (auto &t : tests)
    if (argc < 2 || strcmp(argv[1], t.name) == 0) {
      fprintf(stderr, "palloc: %s\n", t.name);
      t.fn();
      ++ran;
    }
  if (!ran) {
    fprintf(stderr, "palloc_tests: unknown test '%s'\n", argv[1]);
    return 2;
  }
  return check_result("palloc");
}
