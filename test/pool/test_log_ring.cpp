//===- test_log_ring.cpp - the log ring's floor, helping and spill --------===//
//
// For a lazy gp_/ip_ library with the log ring (PTM_OPT_LOG_RING,
// docs/algorithms.md "Log ring"):
//
//   child:  thread A commits A = kAMark and X = 1, then stays alive outside
//           any transaction: its last commit's lines are unflushed and its
//           record holds the replay floor back. The main thread commits
//           X = 2..21 (and its own word B[i] each time): its ring's parts
//           come round again, so its commits must make room, i.e. write A's
//           lines back themselves. Then one transaction writes kBig words
//           32 bytes apart (more than a third of a slot, in word or chunk
//           entries: its record takes the whole slot), then X = 22 and
//           X = 23, then SIGKILL (A still idle, nothing closed).
//   parent: before recovery, A's record is at or below the pool's replay
//           floor: only a helper can have put it there (A never committed
//           again); nothing is damaged or torn. After recovery: A =
//           kAMark, X = 23, every B[i] and every big word; ptm-pool check
//           passes.
//
// Deterministic: A's commit comes first, the main thread's are counted.
//
//===----------------------------------------------------------------------===//

#include "test/pool/mapped_pool.h"

#include <atomic>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <thread>

using namespace ptm::pool;

constexpr uint64_t kAMark = 0xa11ce0000a11ceull;
constexpr uint64_t kCommits = 20;
constexpr uint64_t kBig = 3600; // words, 32 bytes apart
constexpr uint64_t kStride = 4; // words

struct Root {
  uint64_t x;
  uint64_t a;
  uint64_t b[kCommits];
  uint64_t big_offset; // of the big block from the root
};

static void child(const std::string &path) {
  if (ptm_open(path.c_str(), 64 << 20) != 0)
    _exit(3);
  auto *root = static_cast<Root *>(ptm_root(sizeof(Root)));
  if (!root)
    _exit(3);
  std::atomic<int> a_done{0};
  std::thread a([&] {
    run_tx([&] {
      __ptm_write_8(&root->a, kAMark);
      __ptm_write_8(&root->x, uint64_t(1));
    });
    a_done.store(1);
    for (;;)
      pause(); // idle, its slot kept, until the process is killed
  });
  while (!a_done.load())
    std::this_thread::yield();
  for (uint64_t i = 0; i < kCommits; ++i)
    run_tx([&] {
      __ptm_write_8(&root->x, i + 2);
      __ptm_write_8(&root->b[i], (i + 1) * 100);
    });
  uint64_t *big = static_cast<uint64_t *>(ptm_malloc(kBig * kStride * 8));
  if (!big)
    _exit(4);
  run_tx([&] {
    for (uint64_t i = 0; i < kBig; ++i)
      __ptm_write_8(&big[i * kStride], i + 7);
    __ptm_write_8(&root->big_offset, uint64_t(reinterpret_cast<char *>(big) -
                                              reinterpret_cast<char *>(root)));
  });
  for (uint64_t v : {kCommits + 2, kCommits + 3})
    run_tx([&] { __ptm_write_8(&root->x, v); });
  kill(getpid(), SIGKILL);
  _exit(5);
}

// Whether the committed record P of slot I logs VALUE for the word at ADDR
// (word entry or chunk entry).
static bool record_logs(const PoolView &view, uint32_t i, unsigned p,
                        uint64_t addr, uint64_t value) {
  const RecordHeader &h = record_header(*view.slot(i), p);
  if (!is_redo_state(status_state(h.status)))
    return false;
  uint64_t gen = status_gen(h.status);
  uint64_t b = ring_part_begin(view.capacity(), p);
  const LogEntry *e = view.entries(i) + b;
  uint64_t n = h.redo_count <= view.capacity() - b ? h.redo_count : 0;
  for (uint64_t k = 0; k < n && entry_valid(e[k], gen, n - k);
       k += entry_records(e[k])) {
    uint64_t v = 0;
    if (entry_kind(e[k]) == kWordEntry && e[k].addr == addr)
      v = e[k].data;
    else if (entry_kind(e[k]) == kChunkEntry && e[k].addr <= addr &&
             addr < e[k].addr + e[k].data)
      memcpy(&v, chunk_bytes(e[k]) + (addr - e[k].addr), 8);
    if (v == value)
      return true;
  }
  return false;
}

int main(int argc, char **argv) {
  std::string path = temp_pool_path("log-ring");
  run_until_killed(path, child);

  // Before recovery: A's record (A = kAMark and X = 1: with chunk entries
  // the main thread's records log A too) is at or below the floor.
  uint64_t a_addr = 0;
  {
    MappedPool pool(path, /*writable=*/false);
    const PoolView &view = pool.view;
    a_addr = reinterpret_cast<uint64_t>(view.base + view.root()->offset) +
             offsetof(Root, a);
    uint64_t floor = replay_floor(view);
    int found = 0;
    for (uint32_t i = 0; i < view.header.slot_count; ++i)
      for (unsigned p = 0; p < kRingParts; ++p)
        if (record_logs(view, i, p, a_addr, kAMark) &&
            record_logs(view, i, p, a_addr - offsetof(Root, a), 1)) {
          ++found;
          uint64_t order = record_header(*view.slot(i), p).commit_order;
          printf("%s: A's record: slot %u record %u, order %llu; replay "
                 "floor %llu\n",
                 ptm_algorithm(), i, p, (unsigned long long)order,
                 (unsigned long long)floor);
          CHECK(order <= floor);
        }
    CHECK_EQ(found, 1);
    for (const SlotScan &s : pending_slots(view))
      CHECK(!s.damaged && !s.torn);
  }

  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  auto *r = static_cast<Root *>(ptm_root(0));
  CHECK(r != nullptr);
  if (r) {
    CHECK_EQ(r->a, kAMark);
    CHECK_EQ(r->x, kCommits + 3);
    for (uint64_t i = 0; i < kCommits; ++i)
      CHECK_EQ(r->b[i], (i + 1) * 100);
    CHECK(r->big_offset != 0);
    auto *big = reinterpret_cast<uint64_t *>(reinterpret_cast<char *>(r) +
                                             r->big_offset);
    uint64_t wrong = 0;
    for (uint64_t i = 0; r->big_offset && i < kBig; ++i)
      wrong += big[i * kStride] != i + 7;
    CHECK_EQ(wrong, 0u);
    printf("%s: recovered X = %llu, A and %llu words as committed\n",
           ptm_algorithm(), (unsigned long long)r->x,
           (unsigned long long)(kCommits + kBig));
  }
  ptm_close();
  ptm_pool_check(argc > 1 ? argv[1] : nullptr, path);
  unlink(path.c_str());
  return check_result("log-ring");
}
