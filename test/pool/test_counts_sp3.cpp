//===- test_counts_sp3.cpp - sp3's clwb/sfence per transaction ------------===//
//
// The counts of docs/algorithms.md "sp3" for the committing thread (the
// persister, which writes the PM view, counts apart), with one thread, so
// that no order is pending when a transaction commits and its record has
// no dependency. G = PTM_LOG_GRANULARITY, L = 1 line per chunk entry for
// G <= 32, 2 for 64:
//   W words in W distinct chunks    the record: its head line and W chunk
//                                   entries, streamed: 1 + L*W clwb, 1 sfence
//   two words of one chunk, twice   one chunk entry: 1 + L clwb, 1 sfence
//   fresh blocks of at most B bytes logged whole in the record: their
//   in all (B = the slot's bytes    chunks join the record's entries
//   / 16: 16 KiB)
//   a 64 KiB block                  no record: the transaction waits until
//                                   the persister has written it: 0 and 0
//   outside the pool, read-only     0 and 0
// Under PTM_DURABILITY=buffered (test pool-counts-sp3-buffered) every
// transaction costs the committing thread 0 and 0.
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_options.h" // the PTM_OPT_* defaults
#include "pool_test.h"

#include <cstring>
#include <vector>

#ifndef PTM_LOG_GRANULARITY
#define PTM_LOG_GRANULARITY 32
#endif

alignas(64) static uint64_t global_words[8];

int main() {
  const char *env = getenv("PTM_DURABILITY");
  const bool buffered = env && !strncmp(env, "buffered", 8);
  printf("sp3 durability: %s\n", buffered ? "buffered" : "strict");
  std::string path = temp_pool_path("counts-sp3");
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  auto *words = static_cast<uint64_t *>(ptm_root(4096));
  CHECK(words != nullptr);
  CHECK(strcmp(ptm_algorithm(), "sp3") == 0);
  const uint64_t G = PTM_LOG_GRANULARITY;
  const uint64_t L = PTM_OPT_COARSE_LOG && G == 64 ? 2 : 1;
  // (the record's lines; none under buffered durability)
  auto record = [&](uint64_t lines) { return buffered ? 0 : 1 + lines; };
  const uint64_t fences = buffered ? 0 : 1;
  run_tx([&] { __ptm_write_8(&words[0], 1); }); // claims the slot

  for (uint64_t w : {1, 2, 5, 10}) {
    ptm_stats_t d = write_w_lines(words, w, "sp3");
    CHECK_EQ(d.commits, 1u);
    CHECK_EQ(d.aborts, 0u);
    CHECK_EQ(d.log_entries, w);
    CHECK_EQ(d.clwb, record(L * w));
    CHECK_EQ(d.sfence, fences);
  }
  uint64_t total = 0;
  for (uint64_t i = 0; i < 10; ++i) {
    uint64_t rounds = (i < 1) + (i < 2) + (i < 5) + (i < 10);
    CHECK_EQ(words[8 * i], (i == 0 ? 1u : 0u) + rounds * (i + 1));
    total += words[8 * i];
  }

  { // Two words of one chunk, each written twice: one entry.
    ptm_stats_t before, after;
    ptm_stats(&before);
    run_tx([&] {
      __ptm_write_8(&words[100], 5);
      __ptm_write_8(&words[100], 6);
      __ptm_write_8(&words[101], 7);
      __ptm_write_8(&words[101], 8);
    });
    ptm_stats(&after);
    ptm_stats_t d = stats_delta(before, after);
    CHECK_EQ(d.log_entries, 1u);
    CHECK_EQ(d.clwb, record(L));
    CHECK_EQ(d.sfence, fences);
    CHECK_EQ(words[100], 6u);
    CHECK_EQ(words[101], 8u);
  }

  // Fresh blocks: 256 bytes and 4 KiB (logged whole) and 64 KiB (left to
  // the persister), their pointers in the root's chunk 30.
  const uint64_t budget =
      ptm::pool::slot_capacity(ptm::pool::kDefaultSlotSize) *
      sizeof(ptm::pool::LogEntry) / 16;
  CHECK(budget >= 4096 && budget < 65536);
  for (size_t size : {size_t(256), size_t(4096), size_t(65536)}) {
    // (every word of a logged block; a word of each 512 bytes of the large
    // one, whose write set must fit the slot at any granularity)
    const size_t step = size <= budget ? 1 : 64;
    ptm_stats_t before, after;
    ptm_stats(&before);
    run_tx([&] {
      auto *b = static_cast<uint64_t *>(ptm_malloc(size));
      CHECK(b != nullptr);
      for (size_t i = 0; i < size / 8; i += step)
        __ptm_write_8(&b[i], i + size);
      __ptm_write_8(&words[240], reinterpret_cast<uint64_t>(b));
    });
    ptm_stats(&after);
    ptm_stats_t d = stats_delta(before, after);
    printf("sp3 block of %zu bytes: clwb %llu sfence %llu\n", size,
           (unsigned long long)d.clwb, (unsigned long long)d.sfence);
    const auto *b = reinterpret_cast<const uint64_t *>(words[240]);
    for (size_t i = 0; i < size / 8; i += step)
      CHECK_EQ(b[i], i + size);
    if (!buffered && size > budget) { // (the persister wrote it: in the file)
      std::vector<uint64_t> in_file(size / 8);
      read_file_at(path, b, in_file.data(), size);
      for (size_t i = 0; i < size / 8; i += step)
        CHECK_EQ(in_file[i], i + size);
    }
    // (logged whole under strict durability only; the allocator's own
    // metadata words join the record too: counted from the log entries the
    // transaction made beside the pointer's and the block's)
    uint64_t logged = !buffered && size <= budget ? size / G : 0;
    CHECK(d.log_entries >= 1 + logged);
    uint64_t meta = d.log_entries - 1 - logged;
    if (size <= budget) {
      CHECK_EQ(d.clwb, record(L * (1 + logged + meta)));
      CHECK_EQ(d.sfence, fences);
    } else {
      CHECK_EQ(d.clwb, 0u);
      CHECK_EQ(d.sfence, 0u);
    }
  }

  { // Outside the pool: atomic, never flushed or fenced.
    ptm_stats_t d = write_outside_pool(global_words);
    CHECK_EQ(d.clwb, 0u);
    CHECK_EQ(d.sfence, 0u);
  }
  { // Read-only.
    uint64_t sum = 0;
    ptm_stats_t d = read_ten_lines(words, sum);
    CHECK_EQ(sum, total);
    CHECK_EQ(d.clwb, 0u);
    CHECK_EQ(d.sfence, 0u);
  }
  ptm_close();
  unlink(path.c_str());
  return check_result("counts-sp3");
}
