//===- test_deferred_crash.cpp - deferred flushing recovers in order ------===//
//
// Deferred flushing (paper IV-D) moves a lazy commit's clwbs and its idle
// status after the locks, so two committed transactions may both still hold
// their logs when the process dies. Run against a test-only copy of a lazy
// library built with PTM_TEST_HOOKS=1, whose deferred commit calls
// ptm_test_deferred_hook after its write-back, before its flushes:
//
//   child: thread B claims its slot first (a read-only transaction), so
//          its slot index is below A's; thread A commits X = 1 (and A's own
//          word); in the hook it lets B go and stops there (not idle,
//          nothing flushed); B commits X = 2 (and its own word) after A (it
//          takes the locks A released); in the hook B kills the process
//          with SIGKILL
//   parent: the pool holds two redo-committed slots, the lower one (B's)
//          with the higher commit order (a log ring also still holds the
//          root's creation, ordered first); reopening replays them in commit
//          order (not slot order): X = 2, both own words present;
//          ptm-pool check passes on the recovered pool
//
// Deterministic: the hook orders the two commits and the crash point.
//
//===----------------------------------------------------------------------===//

#include "test/pool/mapped_pool.h"

#include <atomic>
#include <csignal>
#include <sys/wait.h>
#include <thread>

extern "C" void (*ptm_test_deferred_hook)(void);

using namespace ptm::pool;

struct Root {
  uint64_t x;
  uint64_t own[2];
};

static Root *root;
static std::atomic<int> hook_calls{0};
static std::atomic<int> b_may_go{0};
static std::atomic<int> b_has_slot{0};

static void hook() {
  int n = ++hook_calls;
  if (n == 1) { // A: stay committed-but-not-idle
    b_may_go.store(1);
    for (;;)
      pause();
  }
  kill(getpid(), SIGKILL); // B, after its write-back
}

static void commit(int who) {
  run_tx([&] {
    __ptm_write_8(&root->x, uint64_t(who + 1));
    __ptm_write_8(&root->own[who], uint64_t(who + 1) * 10);
  });
}

static void child(const std::string &path) {
  if (ptm_open(path.c_str(), 32 << 20) != 0)
    _exit(2);
  root = static_cast<Root *>(ptm_root(sizeof(Root)));
  if (!root)
    _exit(3);
  ptm_test_deferred_hook = hook;
  std::thread a([] {
    while (!b_has_slot.load())
      std::this_thread::yield();
    commit(0);
  });
  std::thread b([] {
    uint64_t seen = 0;
    run_tx([&] { seen = __ptm_read_8(&root->x); });
    if (seen != 0)
      _exit(5);
    b_has_slot.store(1);
    while (!b_may_go.load())
      std::this_thread::yield();
    commit(1);
  });
  a.join();
  b.join();
  _exit(4); // not reached: B's hook kills the process
}

int main(int argc, char **argv) {
  std::string path = temp_pool_path("deferred-crash");
  run_until_killed(path, child);

  // Before recovery: A's and B's records are the two latest committed ones
  // (a log ring also keeps the root's creation); B's, in the lower slot,
  // came second.
  MappedPool pool(path, /*writable=*/false);
  std::vector<SlotScan> pend = pending_slots(pool.view);
  const SlotScan *last = nullptr, *before = nullptr;
  for (const SlotScan &s : pend) {
    CHECK(is_redo_state(s.state) && !s.torn && !s.superseded);
    if (!last || s.order > last->order) {
      before = last;
      last = &s;
    } else if (!before || s.order > before->order) {
      before = &s;
    }
  }
  CHECK(pend.size() == 2 || pend.size() == 3);
  CHECK(last && before && last->index < before->index);
  pool.unmap();

  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  Root *r = static_cast<Root *>(ptm_root(0));
  CHECK(r != nullptr);
  if (r) {
    printf("%s: recovered X = %llu, own = %llu %llu\n", ptm_algorithm(),
           (unsigned long long)r->x, (unsigned long long)r->own[0],
           (unsigned long long)r->own[1]);
    CHECK_EQ(r->x, 2u);
    CHECK_EQ(r->own[0], 10u);
    CHECK_EQ(r->own[1], 20u);
  }
  ptm_close();
  ptm_pool_check(argc > 1 ? argv[1] : nullptr, path);
  unlink(path.c_str());
  return check_result("deferred-crash");
}
