//===- testrt.cpp - libptm_testrt: cgl + ABI call counters + abort sweep --===//

#include "ptm_testrt.h"
#include "runtime/abi/abi_glue.h"
#include "test/testrt/testrt_policy.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_set>

namespace {

struct ptm_test_counts counts;

void bump(uint64_t &counter, uint64_t n = 1) {
  __atomic_fetch_add(&counter, n, __ATOMIC_RELAXED);
}

// Blocks allocated transactionally and not yet freed through the runtime.
std::mutex live_mutex;
std::unordered_set<uintptr_t> *live_blocks;

void track_block(uintptr_t block, bool alive) {
  std::lock_guard<std::mutex> lock(live_mutex);
  if (!live_blocks)
    live_blocks = new std::unordered_set<uintptr_t>; // never freed
  if (alive)
    live_blocks->insert(block);
  else
    live_blocks->erase(block);
  __atomic_store_n(&counts.live_tx_allocs, live_blocks->size(),
                   __ATOMIC_RELAXED);
}

__attribute__((constructor)) void read_environment() {
  if (const char *env = getenv("PTM_TEST_ABORT_SWEEP"))
    ptm_test_set_abort_sweep(static_cast<unsigned>(strtoul(env, nullptr, 0)));
  if (const char *env = getenv("PTM_TEST_COMMIT_RETRY"))
    ptm_test_set_commit_retry(static_cast<unsigned>(strtoul(env, nullptr, 0)));
}

} // namespace

void ptm::TestrtPolicy::on_event(TxThread &, Event event, uintptr_t arg) {
  unsigned e = static_cast<unsigned>(event);
  if (is_barrier(event))
    bump(counts.barriers);
  if (event >= Event::Read1 && event <= Event::ReadN) {
    bump(counts.reads[e - unsigned(Event::Read1)]);
    return;
  }
  if (event >= Event::Write1 && event <= Event::WriteN) {
    bump(counts.writes[e - unsigned(Event::Write1)]);
    return;
  }
  if (is_libc(event)) {
    bump(counts.libc[e - unsigned(Event::LibcMemchr)]);
    bump(counts.libc_total);
    return;
  }
  switch (event) {
  case Event::Begin:
    bump(counts.begins);
    break;
  case Event::NestedBegin:
    bump(counts.nested_begins);
    break;
  case Event::Commit:
    bump(counts.commits);
    break;
  case Event::Restart:
    bump(counts.restarts);
    break;
  case Event::Abort:
    bump(counts.aborts);
    break;
  case Event::InjectedAbort:
    bump(counts.injected_aborts);
    break;
  case Event::InjectedRetry:
    bump(counts.injected_retries);
    break;
  case Event::UnwindRollback:
    bump(counts.unwind_rollbacks);
    break;
  case Event::UnwindCommit:
    bump(counts.unwind_commits);
    break;
  case Event::RegionBegin:
    bump(counts.region_begins);
    break;
  case Event::RegionEnd:
    bump(counts.region_ends);
    break;
  case Event::Irrevocable:
    bump(counts.irrevocable);
    break;
  case Event::Memcpy:
    bump(counts.memcpy);
    break;
  case Event::Memmove:
    bump(counts.memmove);
    break;
  case Event::Memset:
    bump(counts.memset);
    break;
  case Event::AllocCall:
    bump(counts.alloc_calls);
    break;
  case Event::FreeCall:
    bump(counts.free_calls);
    break;
  case Event::AllocRecorded:
    bump(counts.tx_allocs);
    track_block(arg, true);
    break;
  case Event::FreeDeferred:
    bump(counts.tx_frees);
    break;
  case Event::AllocRolledBack:
    bump(counts.rolled_back_allocs);
    track_block(arg, false);
    break;
  case Event::FreeApplied:
    bump(counts.applied_frees);
    track_block(arg, false);
    break;
  case Event::CloneRegistered:
    bump(counts.clone_registrations, arg);
    break;
  case Event::CloneLookup:
    bump(counts.clone_lookups);
    break;
  case Event::CloneMiss:
    bump(counts.clone_misses);
    break;
  case Event::Unsupported:
    bump(counts.unsupported[arg < 6 ? arg : 0]);
    break;
  default:
    break;
  }
}

PTM_DEFINE_RUNTIME(ptm::TestrtPolicy)

extern "C" const struct ptm_test_counts *ptm_test_counts(void) {
  return &counts;
}

extern "C" void ptm_test_reset(void) {
  std::lock_guard<std::mutex> lock(live_mutex);
  if (live_blocks)
    live_blocks->clear();
  memset(&counts, 0, sizeof counts);
}

extern "C" void ptm_test_set_abort_sweep(unsigned n) {
  __atomic_store_n(&ptm::TestrtPolicy::abort_sweep, n, __ATOMIC_RELAXED);
}

extern "C" unsigned ptm_test_abort_sweep(void) {
  return __atomic_load_n(&ptm::TestrtPolicy::abort_sweep, __ATOMIC_RELAXED);
}

extern "C" void ptm_test_set_commit_retry(unsigned k) {
  __atomic_store_n(&ptm::TestrtPolicy::commit_retries, k, __ATOMIC_RELAXED);
}

extern "C" unsigned ptm_test_commit_retry(void) {
  return __atomic_load_n(&ptm::TestrtPolicy::commit_retries, __ATOMIC_RELAXED);
}
