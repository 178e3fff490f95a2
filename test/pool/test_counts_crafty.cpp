//===- test_counts_crafty.cpp - crafty's clwb/sfence per transaction ------===//
//
// The exact counts of docs/algorithms.md "Crafty" for one transaction that
// writes W 8-byte words in W distinct lines of the pool, W in {1, 2, 5, 10},
// on the path PTM_HTM chose (the test prints which; G =
// PTM_LOG_GRANULARITY, L = 1 line per chunk entry for G <= 32, 2 for 64):
//   SGL (PTM_HTM=off, or no RTM)  the ip_cgl_eager sequence with the floor
//       for the idle status: (L+1)W + 2 clwb, W + 2 sfence, W entries
//   HTM (RTM or its emulation)    W word entries flushed after the Log
//       phase (ceil(W/2) lines) and the header, the Redo phase, the W data
//       lines, the floor: ceil(W/2) + W + 2 clwb; sfence: 2 on RTM (the
//       Redo phase's commit drains the entries), 3 emulated (the emulation
//       fences where RTM's commit drains)
// and for both: a read-only transaction and one that writes only outside
// the pool (a global array, a DRAM block) cost 0 and 0; a transaction
// runs as many times as it commits (one attempt each: nothing else runs).
// With PTM_HTM_ABORT_EVERY=3 under the emulation (every third hardware
// transaction aborts at its end) the transactions still commit with the
// right values, and the aborts show in the attempts.
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_options.h" // the PTM_OPT_* defaults
#include "pool_test.h"

#include <cstring>

#ifndef PTM_LOG_GRANULARITY
#define PTM_LOG_GRANULARITY 32
#endif

alignas(64) static uint64_t global_words[8];

int main() {
  const char *env = getenv("PTM_HTM");
  const bool htm = env && (!strcmp(env, "emulate") || !strcmp(env, "rtm"));
  const bool emulated = htm && !strcmp(env, "emulate");
  const bool injected = emulated && getenv("PTM_HTM_ABORT_EVERY");
  printf("crafty path: %s\n",
         htm ? (emulated ? "emulated HTM" : "RTM") : "single global lock");
  std::string path = temp_pool_path("counts-crafty");
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  auto *words = static_cast<uint64_t *>(ptm_root(4096));
  CHECK(words != nullptr);
  CHECK(strcmp(ptm_algorithm(), "crafty") == 0);
  const uint64_t G = PTM_LOG_GRANULARITY;
  const uint64_t L = PTM_OPT_COARSE_LOG && G == 64 ? 2 : 1;
  run_tx([&] { __ptm_write_8(&words[0], 1); }); // claims the slot

  for (uint64_t w : {1, 2, 5, 10}) {
    ptm_stats_t d = write_w_lines(words, w, "crafty");
    CHECK_EQ(d.commits, 1u);
    if (injected)
      continue;
    CHECK_EQ(d.aborts, 0u);
    CHECK_EQ(d.log_entries, w);
    if (htm) {
      CHECK_EQ(d.clwb, (w + 1) / 2 + w + 2);
      CHECK_EQ(d.sfence, emulated ? 3u : 2u);
    } else {
      CHECK_EQ(d.clwb, (L + 1) * w + 2);
      CHECK_EQ(d.sfence, w + 2);
    }
  }
  // The values: word 8i was written by the rounds with W > i.
  uint64_t total = 0;
  for (uint64_t i = 0; i < 10; ++i) {
    uint64_t rounds = (i < 1) + (i < 2) + (i < 5) + (i < 10);
    CHECK_EQ(words[8 * i], (i == 0 ? 1u : 0u) + rounds * (i + 1));
    total += words[8 * i];
  }

  // Outside the pool: atomic, never flushed or fenced.
  {
    ptm_stats_t d = write_outside_pool(global_words);
    if (!injected) {
      CHECK_EQ(d.clwb, 0u);
      CHECK_EQ(d.sfence, 0u);
    }
  }

  // Read-only.
  {
    uint64_t sum = 0;
    ptm_stats_t d = read_ten_lines(words, sum);
    CHECK_EQ(sum, total);
    CHECK_EQ(d.clwb, 0u);
    CHECK_EQ(d.sfence, 0u);
  }

  if (injected) {
    ptm_stats_t s;
    ptm_stats(&s);
    printf("crafty with injected aborts: %llu aborts in %llu commits\n",
           (unsigned long long)s.aborts, (unsigned long long)s.commits);
    CHECK(s.aborts > 0);
  }
  ptm_close();
  unlink(path.c_str());
  return check_result("counts-crafty");
}
