//===- test_counts.cpp - clwb/sfence per transaction = Listing 1 ----------===//
//
// For W distinct written 8-byte words, W in {1, 2, 5, 10}, the ptm_stats
// deltas of one committed transaction must be exactly Listing 1's formulas:
//   lazy (p_cgl_lazy, p_orec_lazy, p_orec_mixed, p_norec, p_ring)
//                2W+2 clwb, 4 sfence; a read-only transaction: 0 and 0
//   eager (p_cgl_eager, p_orec_eager, p_tlrw)
//                2W+2 clwb, W+3 sfence; read-only: 1 and 1 (begin)
// Prints the measured figures.
//
//===----------------------------------------------------------------------===//

#include "pool_test.h"

#include <cstring>

static ptm_stats_t delta(const ptm_stats_t &a, const ptm_stats_t &b) {
  ptm_stats_t d;
  const uint64_t *pa = &a.commits, *pb = &b.commits;
  uint64_t *pd = &d.commits;
  for (size_t i = 0; i < sizeof d / sizeof(uint64_t); ++i)
    pd[i] = pb[i] - pa[i];
  return d;
}

int main() {
  std::string path = temp_pool_path("counts");
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  auto *words = static_cast<uint64_t *>(ptm_root(4096));
  CHECK(words != nullptr);
  const char *lib = ptm_algorithm();
  bool lazy = strcmp(lib, "p_cgl_eager") != 0 &&
              strcmp(lib, "p_orec_eager") != 0 && strcmp(lib, "p_tlrw") != 0;
  // Warm-up: the thread's first transaction claims its slot.
  run_tx([&] { __ptm_write_8(&words[0], 1); });

  for (uint64_t w : {1, 2, 5, 10}) {
    ptm_stats_t before, after;
    ptm_stats(&before);
    run_tx([&] {
      for (uint64_t i = 0; i < w; ++i)
        __ptm_write_8(&words[8 * i], __ptm_read_8(&words[8 * i]) + i + 1);
    });
    ptm_stats(&after);
    ptm_stats_t d = delta(before, after);
    printf("%s W=%llu: clwb %llu sfence %llu log_entries %llu\n",
           ptm_algorithm(), (unsigned long long)w, (unsigned long long)d.clwb,
           (unsigned long long)d.sfence, (unsigned long long)d.log_entries);
    CHECK_EQ(d.commits, 1u);
    CHECK_EQ(d.clwb, 2 * w + 2);
    CHECK_EQ(d.sfence, lazy ? 4 : w + 3);
    CHECK_EQ(d.log_entries, w);
  }

  // Rewriting a word: lazy merges into its entry (W counts distinct words).
  if (lazy) {
    ptm_stats_t before, after;
    ptm_stats(&before);
    run_tx([&] {
      __ptm_write_8(&words[0], 5);
      __ptm_write_8(&words[0], 6);
      __ptm_write_4(&words[1], 7);
      __ptm_write_4(reinterpret_cast<char *>(&words[1]) + 4, 8);
      CHECK_EQ(__ptm_read_8(&words[0]), 6u);
      CHECK_EQ(__ptm_read_8(&words[1]), (8ull << 32) | 7u);
    });
    ptm_stats(&after);
    ptm_stats_t d = delta(before, after);
    CHECK_EQ(d.clwb, 2 * 2 + 2u);
    CHECK_EQ(d.sfence, 4u);
    CHECK_EQ(words[0], 6u);
    CHECK_EQ(words[1], (8ull << 32) | 7u);
  }

  // Read-only: lazy flushes and fences nothing; eager marks itself active
  // at begin (Listing 1 line 23-24) and returns at commit.
  ptm_stats_t before, after;
  ptm_stats(&before);
  uint64_t sum = 0;
  run_tx([&] {
    sum = 0;
    for (int i = 0; i < 10; ++i)
      sum += __ptm_read_8(&words[8 * i]);
  });
  ptm_stats(&after);
  ptm_stats_t d = delta(before, after);
  printf("%s read-only: clwb %llu sfence %llu\n", ptm_algorithm(),
         (unsigned long long)d.clwb, (unsigned long long)d.sfence);
  CHECK_EQ(d.clwb, lazy ? 0u : 1u);
  CHECK_EQ(d.sfence, lazy ? 0u : 1u);
  CHECK(sum > 0);

  ptm_close();
  unlink(path.c_str());
  return check_result("counts");
}
