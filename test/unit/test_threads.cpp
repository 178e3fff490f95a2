//===- test_threads.cpp - bank invariant and stats across threads ---------===//
//
// test_threads THREADS: THREADS threads move money between accounts in
// transactions (some of which restart once); concurrent auditors check that
// the total never changes. Then the statistics must add up, including
// threads that have exited.
//
//===----------------------------------------------------------------------===//

#include "check.h"

#include <cstdint>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

constexpr int kAccounts = 64;
constexpr uint64_t kInitial = 1000;
constexpr int kTransfersPerThread = 20000;
static uint64_t accounts[kAccounts];

static void transfer_thread(unsigned seed) {
  std::mt19937 rng(seed);
  for (int i = 0; i < kTransfersPerThread; ++i) {
    int from = rng() % kAccounts, to = rng() % kAccounts;
    uint64_t amount = rng() % 50;
    bool restart_once = i % 97 == 0;
    int attempts = 0;
    run_tx([&] {
      ++attempts;
      uint64_t a = __ptm_read_8(&accounts[from]);
      if (a < amount)
        return;
      __ptm_write_8(&accounts[from], a - amount);
      // Half-done transfer: a restart here must undo the debit.
      if (restart_once && attempts == 1)
        ptm_restart();
      __ptm_write_8(&accounts[to], __ptm_read_8(&accounts[to]) + amount);
    });
  }
}

static uint64_t audit() {
  uint64_t sum = 0;
  run_tx([&] {
    sum = 0;
    for (auto &a : accounts)
      sum += __ptm_read_8(&a);
  });
  return sum;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  for (auto &a : accounts)
    a = kInitial;
  const uint64_t total = kInitial * kAccounts;

  ptm_stats_t before;
  ptm_stats(&before);
  size_t threads_before = ptm_stats_threads(nullptr, 0);

  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back(transfer_thread, 100 + t);
  bool stop = false;
  int audits = 0;
  std::thread auditor([&] {
    do { // at least once, even if the workers are already done
      CHECK_EQ(audit(), total);
      ++audits;
    } while (!__atomic_load_n(&stop, __ATOMIC_RELAXED));
  });
  for (auto &w : workers)
    w.join();
  __atomic_store_n(&stop, true, __ATOMIC_RELAXED);
  auditor.join();
  CHECK_EQ(audit(), total);
  CHECK(audits > 0);

  // Totals include the exited threads; per-thread figures add up to them.
  ptm_stats_t after;
  ptm_stats(&after);
  uint64_t restarts_expected = threads * ((kTransfersPerThread + 96) / 97);
  uint64_t commits = after.commits - before.commits;
  CHECK(commits >= uint64_t(threads) * kTransfersPerThread + audits);
  if (!getenv("PTM_TEST_ABORT_SWEEP")) // else the sweep adds aborts
    CHECK(after.aborts - before.aborts <= restarts_expected);
  CHECK(after.aborts - before.aborts > 0);

  size_t n = ptm_stats_threads(nullptr, 0);
  CHECK(n >= threads_before + threads + 1);
  std::vector<ptm_stats_t> per(n);
  CHECK_EQ(ptm_stats_threads(per.data(), n), n);
  uint64_t sum_commits = 0, sum_aborts = 0;
  for (auto &s : per) {
    sum_commits += s.commits;
    sum_aborts += s.aborts;
  }
  CHECK_EQ(sum_commits, after.commits);
  CHECK_EQ(sum_aborts, after.aborts);
  CHECK_EQ(after.clwb, 0u);
  CHECK_EQ(after.sfence, 0u);
  CHECK(after.log_entries > 0);
  ptm_stats_print(stdout);
  return check_result("threads");
}
