//===- test_order.cpp - redo logs are replayed in the library's commit order =//
//
// For a redo (lazy) library: three threads commit, one after the other, a
// transaction that writes the same word X (values 1, 2, 3); each keeps its
// pool slot (it waits until all three have committed), so each slot still
// holds its last redo log with the commit order the algorithm gave it (its
// clock, sequence lock, ring index or counter). The main thread commits
// last, in slot 0: replaying by slot index would end with another value.
//
// Then the crash is made by hand: after ptm_close, every slot whose last
// log wrote X is set back to "redo committed" and X to 0 -- as if each had
// crashed between its status-committed and idle steps, before its
// write-back reached memory. Reopening must replay in commit order: X = 3,
// and the word each transaction wrote alone has its value too.
//
//===----------------------------------------------------------------------===//

#include "test/pool/mapped_pool.h"

#include <atomic>
#include <cstring>
#include <thread>

using namespace ptm::pool;

struct Root {
  uint64_t x;
  uint64_t own[4];
};

static Root *root;

static void commit_value(uint64_t v) {
  run_tx([&] {
    __ptm_write_8(&root->x, v);
    __ptm_write_8(&root->own[v], v * 10);
  });
}

int main() {
  std::string path = temp_pool_path("order");
  CHECK_EQ(ptm_open(path.c_str(), 32 << 20), 0);
  root = static_cast<Root *>(ptm_root(sizeof(Root)));
  CHECK(root != nullptr);

  // Threads 1 and 2 commit in turn and keep their slots until the main
  // thread (slot 0, claimed by ptm_root) has committed the last value.
  std::atomic<int> step{0};
  auto worker = [&](uint64_t v) {
    while (step.load() != int(v) - 1)
      std::this_thread::yield();
    commit_value(v);
    step.store(int(v));
    while (step.load() != 3)
      std::this_thread::yield();
  };
  std::thread a(worker, 1), b(worker, 2);
  while (step.load() != 2)
    std::this_thread::yield();
  commit_value(3);
  step.store(3);
  a.join();
  b.join();
  CHECK_EQ(root->x, 3u);
  auto x_addr = reinterpret_cast<uint64_t>(&root->x);
  ptm_close();

  // The hand-made crash.
  MappedPool pool(path, /*writable=*/true);
  PoolView &view = pool.view;
  int reverted = 0;
  uint64_t orders[3] = {0, 0, 0};
  // (every record header of a slot: a log ring's record may be in any part)
  for (uint32_t i = 0; i < view.header.slot_count; ++i)
    for (unsigned p = 0; p < kRingParts; ++p) {
      RecordHeader *s = &record_header(*view.slot(i), p);
      uint64_t gen = status_gen(s->status);
      uint64_t b = ring_part_begin(view.capacity(), p);
      const LogEntry *e = view.entries(i) + b;
      bool wrote_x = false;
      uint64_t value = 0;
      // (word entries, or chunk entries of coarse-grained logging: X's chunk)
      uint64_t n = s->redo_count <= view.capacity() - b ? s->redo_count : 0;
      for (uint64_t k = 0; k < n && entry_valid(e[k], gen, n - k);
           k += entry_records(e[k])) {
        EntryKind kind = entry_kind(e[k]);
        if (kind == kWordEntry && e[k].addr == x_addr) {
          wrote_x = true;
          value = e[k].data;
        } else if (kind == kChunkEntry && e[k].addr <= x_addr &&
                   x_addr < e[k].addr + e[k].data) {
          wrote_x = true;
          memcpy(&value, chunk_bytes(e[k]) + (x_addr - e[k].addr), 8);
        }
      }
      // (X = 0: the root's creation, whose small block a log ring's record
      // holds, PersistentLazyT::log_blocks; it stays idle)
      if (!wrote_x || value < 1 || value > 3 ||
          status_state(s->status) != kIdle)
        continue;
      printf("slot %u record %u: X = %llu, commit order %llu\n", i, p,
             (unsigned long long)value, (unsigned long long)s->commit_order);
      orders[value - 1] = s->commit_order;
      s->status = slot_status(kRedoCommitted, gen);
      ++reverted;
    }
  CHECK_EQ(reverted, 3);
  CHECK(orders[0] < orders[1] && orders[1] < orders[2]);
  auto *r = reinterpret_cast<Root *>(x_addr);
  r->x = 0;
  for (auto &w : r->own)
    w = 0;
  pool.unmap();

  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  root = static_cast<Root *>(ptm_root(0));
  CHECK(root != nullptr);
  if (root) {
    CHECK_EQ(root->x, 3u);
    for (uint64_t v = 1; v <= 3; ++v)
      CHECK_EQ(root->own[v], v * 10);
  }
  ptm_close();
  unlink(path.c_str());
  return check_result("order");
}
