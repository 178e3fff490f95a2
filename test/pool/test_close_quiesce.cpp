//===- test_close_quiesce.cpp - ptm_close while transactions run ----------===//
//
// ptm_close quiesces: it waits for every transaction in flight, and a
// transaction that begins after the close reopens the pool (PTM_POOL) instead
// of running on an unmapped one. Both sides of that handshake are a Dekker
// pair (enter_tx: announce, fence, read the epoch; close_pool: clear the
// epoch, fence, read the announcements) whose fence is asymmetric
// (runtime/base/asymmetric_fence.h): membarrier on the closing side, a
// compiler barrier on the transactions' side; PTM_MEMBARRIER=off makes both
// sides seq_cst fences. Either way, here: 2 (or 4) threads increment counters
// in the pool while the main thread closes it 300 times, each while thread 0
// holds a transaction open; a close that missed a running transaction would
// return while the transaction runs (its body sees the count of closes change),
// unmap the pool under it (SIGSEGV) or lose its commit. At the end every commit
// the threads counted is in the reopened pool.
//
//===----------------------------------------------------------------------===//

#include "pool_test.h"

#include <atomic>
#include <cstring>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <thread>
#include <vector>

// Worker threads: argv[1] (default 2). More workers than cores make a
// worker more often preempted in the middle of entering the pool, e.g.
// with a slot of the pool a close just ended, whose index a worker of the
// reopened pool may hold (runtime/pool/tx_presence.h).
constexpr int kMaxThreads = 4;
static int threads_n = 2;
constexpr int kCloses = 300;
constexpr int kWords = 16;
// Thread 0 keeps its transaction open across the start of a close for this
// many spins (bounded by count), watching for the close to return.
constexpr int kHoldSpins = 50000;

struct Root {
  uint64_t total;
  uint64_t per_thread[kMaxThreads];
  uint64_t words[kMaxThreads][kWords];
};

static Root *root;
static std::atomic<uint64_t> commits[kMaxThreads];
static std::atomic<bool> stop{false};
// ptm_close calls begun and returned (begun is counted before the call,
// returned after it). A body that reads returned == begun (in that order)
// runs in a transaction that entered the pool before the next close began:
// that close must not return before the transaction commits, so the body
// must never see returned change. (A body that reads them apart may be in
// a transaction on the pool reopened after a close that main has not
// counted yet: it checks nothing.)
static std::atomic<uint64_t> begun{0}, returned{0};
static std::atomic<uint64_t> overlapped{0}, held{0};
static std::atomic<bool> holding{false}; // thread 0 waits for a close

static void body(int t) {
  uint64_t seen = returned.load(std::memory_order_seq_cst);
  bool before_close = begun.load(std::memory_order_seq_cst) == seen;
  uint64_t n = __ptm_read_8(&root->per_thread[t]) + 1;
  for (uint64_t &w : root->words[t])
    __ptm_write_8(&w, n);
  if (t == 0 && before_close) {
    // Hold the transaction until the next close begins (or stop), then a
    // while longer: that close must wait for it.
    holding.store(true);
    for (int k = 0; k < (1 << 24) && begun.load() == seen && !stop.load(); ++k)
      __builtin_ia32_pause();
    if (begun.load() != seen)
      held.fetch_add(1); // across the start of a close
    for (int k = 0; k < kHoldSpins && returned.load() == seen; ++k)
      __builtin_ia32_pause();
  }
  if (before_close) {
    if (returned.load(std::memory_order_seq_cst) != seen)
      overlapped.fetch_add(1);
  }
  __ptm_write_8(&root->per_thread[t], n);
  __ptm_write_8(&root->total, __ptm_read_8(&root->total) + 1);
}

static void worker(int t) {
  while (!stop.load(std::memory_order_relaxed)) {
    run_tx([&] { body(t); });
    commits[t].fetch_add(1, std::memory_order_relaxed);
  }
}

static uint64_t committed() {
  uint64_t n = 0;
  for (auto &c : commits)
    n += c.load(std::memory_order_relaxed);
  return n;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    threads_n = atoi(argv[1]);
    if (threads_n < 1 || threads_n > kMaxThreads) {
      fprintf(stderr, "usage: %s [workers 1..%d]\n", argv[0], kMaxThreads);
      return 2;
    }
  }
  const char *off = getenv("PTM_MEMBARRIER");
  long cmds = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  bool available = cmds > 0 && (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED);
  printf("close fence: %s\n",
         off && strcmp(off, "off") == 0
             ? "seq_cst on both sides (PTM_MEMBARRIER=off)"
         : available ? "membarrier (private expedited)"
                     : "seq_cst on both sides (no membarrier here)");

  std::string path = temp_pool_path("close-quiesce");
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  // (the threads' transactions after a close reopen this pool)
  setenv("PTM_POOL", path.c_str(), 1);
  root = static_cast<Root *>(ptm_root(sizeof(Root)));
  CHECK(root != nullptr);

  std::vector<std::thread> threads;
  for (int t = 0; t < threads_n; ++t)
    threads.emplace_back(worker, t);
  for (int i = 0; i < kCloses; ++i) {
    while (!holding.load())
      std::this_thread::yield();
    holding.store(false);
    begun.fetch_add(1, std::memory_order_seq_cst);
    ptm_close();
    returned.fetch_add(1, std::memory_order_seq_cst);
  }
  stop = true;
  for (auto &th : threads)
    th.join();
  ptm_close();

  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  root = static_cast<Root *>(ptm_root(0));
  CHECK(root != nullptr);
  uint64_t n = committed();
  CHECK(n >= uint64_t(kCloses));
  CHECK_EQ(overlapped.load(), 0u);
  CHECK(held.load() > 0);
  CHECK_EQ(root->total, n);
  for (int t = 0; t < threads_n; ++t) {
    CHECK_EQ(root->per_thread[t], commits[t].load());
    for (uint64_t w : root->words[t])
      CHECK_EQ(w, root->per_thread[t]);
  }
  printf("%d closes under %d threads (%llu with a transaction held open across "
         "their start), %llu commits, all in the pool\n",
         kCloses, threads_n, (unsigned long long)held.load(),
         (unsigned long long)n);
  ptm_close();
  unlink(path.c_str());
  return check_result("close-quiesce");
}
