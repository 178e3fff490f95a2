//===- test_bank.cpp - bank transfers on a pool at N threads --------------===//
//
// test_bank THREADS: the accounts live in the pool's root object; THREADS
// threads move money in transactions (some restart once, half-done), each
// also allocates a history node with ptm_malloc and frees its previous one
// inside the same transaction; an auditor checks the total. Afterwards the
// pool is closed and reopened: the total and the live nodes are still there
// and `ptm-pool check` style heap validation (via reopen) passes.
//
//===----------------------------------------------------------------------===//

#include "pool_test.h"

#include <random>
#include <thread>
#include <vector>

constexpr int kAccounts = 64;
constexpr uint64_t kInitial = 1000;
constexpr int kMaxThreads = 8;

struct Node {
  uint64_t transfer;
  uint64_t amount;
};

struct Root {
  uint64_t accounts[kAccounts];
  Node *last[kMaxThreads]; // each thread's newest history node
  uint64_t transfers[kMaxThreads];
};

static Root *root;

static void worker(int t, int n) {
  std::mt19937 rng(100 + t);
  for (int i = 0; i < n; ++i) {
    int from = rng() % kAccounts, to = rng() % kAccounts;
    uint64_t amount = rng() % 50;
    bool restart_once = i % 97 == 0;
    int attempts = 0;
    run_tx([&] {
      ++attempts;
      uint64_t a = __ptm_read_8(&root->accounts[from]);
      if (a < amount)
        return;
      __ptm_write_8(&root->accounts[from], a - amount);
      auto *node = static_cast<Node *>(ptm_malloc(sizeof(Node)));
      CHECK(node != nullptr);
      __ptm_write_8(&node->transfer, uint64_t(i));
      __ptm_write_8(&node->amount, amount);
      if (restart_once && attempts == 1)
        ptm_restart(); // the debit and the allocation are undone
      __ptm_write_8(&root->accounts[to],
                    __ptm_read_8(&root->accounts[to]) + amount);
      void *old = reinterpret_cast<void *>(
          __ptm_read_8(reinterpret_cast<uint64_t *>(&root->last[t])));
      ptm_free(old);
      __ptm_write_8(reinterpret_cast<uint64_t *>(&root->last[t]),
                    reinterpret_cast<uint64_t>(node));
      __ptm_write_8(&root->transfers[t], __ptm_read_8(&root->transfers[t]) + 1);
    });
  }
}

static uint64_t audit() { return tx_sum(root->accounts); }

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  int per_thread = argc > 2 ? atoi(argv[2]) : 5000;
  if (threads > kMaxThreads)
    threads = kMaxThreads;
  std::string path = temp_pool_path("bank");
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  root = static_cast<Root *>(ptm_root(sizeof(Root)));
  CHECK(root != nullptr);
  run_tx([&] {
    for (auto &a : root->accounts)
      __ptm_write_8(&a, kInitial);
  });
  const uint64_t total = kInitial * kAccounts;

  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back(worker, t, per_thread);
  bool stop = false;
  std::thread auditor([&] {
    do
      CHECK_EQ(audit(), total);
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED));
  });
  for (auto &w : workers)
    w.join();
  __atomic_store_n(&stop, true, __ATOMIC_RELAXED);
  auditor.join();
  CHECK_EQ(audit(), total);

  // Reopen: everything committed is there, the heap attaches (checked).
  std::vector<Node *> last(root->last, root->last + threads);
  ptm_close();
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  root = static_cast<Root *>(ptm_root(0));
  CHECK(root != nullptr);
  CHECK_EQ(audit(), total);
  for (int t = 0; t < threads; ++t) {
    CHECK(root->last[t] == last[t]);
    CHECK(root->transfers[t] > 0);
    if (root->last[t])
      CHECK(root->last[t]->transfer < uint64_t(per_thread));
  }
  ptm_stats_t s;
  ptm_stats(&s);
  CHECK(s.aborts > 0);
  CHECK(s.clwb > 0 && s.sfence > 0);
  ptm_close();
  unlink(path.c_str());
  return check_result("bank");
}
