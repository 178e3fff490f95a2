//===- test_slot_log_index.cpp - the slot log's volatile key index --------===//
//
// SlotLogIndex against a std::unordered_map model: transactions of 0 to
// 6000 keys (the table in use starts small and doubles inside them), keys
// that collide in the low bits, resets between transactions (an old key must
// read as absent), and a stamp that wraps. The key summary: reset empties
// it, its fold has every key's bit, and a read of an unlogged word reaches
// the hash index rarely (a 64-bit summary let 22% of such reads through at
// 16 keys, 40% at 32). The summary's grain (set_summary_grain): a chunk
// grain files every key by its chunk, so any address of a logged chunk (or
// of the chunk of a logged word) passes may_contain_block, changing the
// grain in a transaction files its keys again, and unlogged chunks still
// pass rarely.

#include "check.h"
#include "runtime/persist/slot_log_index.h"

#include <random>
#include <unordered_map>
#include <vector>

using namespace ptm;

static void run_transaction(SlotLogIndex &index, std::mt19937_64 &rng,
                            size_t nkeys, uint64_t stride,
                            const std::vector<uint64_t> &previous) {
  index.reset(8190);
  std::unordered_map<uint64_t, uint64_t> model;
  for (uint64_t old : previous)
    CHECK_EQ(index.find(old), -1);
  uint64_t base = (rng() & ~uint64_t(63)) >> 8;
  for (size_t i = 0; i < nkeys; ++i) {
    uint64_t key = base + (rng() % (4 * nkeys + 1)) * stride;
    if (model.count(key)) {
      CHECK_EQ(index.find(key), int64_t(model[key]));
      continue;
    }
    CHECK_EQ(index.find(key), -1);
    uint64_t record = model.size() * 2 + 1;
    index.insert(key, record);
    model[key] = record;
  }
  CHECK_EQ(index.nkeys, model.size());
  CHECK(2 * index.nkeys <= index.mask + 1);
  for (auto &[key, record] : model)
    CHECK_EQ(index.find(key), int64_t(record));
  for (size_t i = 0; i < index.nkeys; ++i) // KEYS keeps insertion order
    CHECK_EQ(model[index.keys[i].key], index.keys[i].record);
  for (size_t i = 1; i < index.nkeys; ++i)
    CHECK(index.keys[i].record > index.keys[i - 1].record);
}

// After a transaction of NKEYS keys STRIDE bytes apart, the share of
// 20,000 other keys (the words and chunks around them, and far ones) that
// the summary lets through, in percent.
static double summary_pass_rate(SlotLogIndex &index, std::mt19937_64 &rng,
                                size_t nkeys, uint64_t stride) {
  index.reset(8190);
  CHECK_EQ(index.summary.fold(), uint64_t(0));
  uint64_t base = (rng() >> 20) & ~uint64_t(4095);
  std::unordered_map<uint64_t, bool> logged;
  for (size_t i = 0; i < nkeys; ++i) {
    uint64_t key = base + i * 3 * stride;
    index.insert(key, i);
    logged[key] = true;
    unsigned bit = KeySummary::bit_of(key) % 64;
    CHECK(index.summary.fold() >> bit & 1);
  }
  size_t through = 0, probes = 0;
  for (uint64_t k = base; probes < 20000; k += stride) {
    uint64_t key = probes % 2 ? k : (rng() >> 16) & ~(stride - 1);
    if (logged.count(key))
      continue;
    ++probes;
    if (index.summary.may_contain(key)) {
      ++through;
      CHECK_EQ(index.find(key), -1);
    }
  }
  return 100.0 * double(through) / double(probes);
}

// Word and chunk keys under grain 8, then 32 (set in the middle of the
// transaction), then 8 again: every key is found, and every byte of a key's
// block at the grain in force passes may_contain_block.
static void check_grains(SlotLogIndex &index, std::mt19937_64 &rng) {
  index.set_summary_grain(8);
  index.reset(8190);
  std::vector<uint64_t> keys;
  uint64_t base = (rng() >> 20) & ~uint64_t(4095);
  for (uint64_t i = 0; i < 40; ++i) // chunks, and words inside other chunks
    keys.push_back(base + 96 * i + (i % 2 ? 8 * (i % 4) : 0));
  auto covered = [&](uint64_t grain) {
    for (size_t i = 0; i < keys.size(); ++i) {
      CHECK_EQ(index.find(keys[i]), int64_t(i));
      uint64_t block = keys[i] & ~(grain - 1);
      for (uint64_t a = block; a < block + grain; ++a)
        CHECK(index.may_contain_block(a));
    }
  };
  for (size_t i = 0; i < keys.size() / 2; ++i)
    index.insert(keys[i], i);
  index.set_summary_grain(32); // (the first half filed again)
  for (size_t i = keys.size() / 2; i < keys.size(); ++i)
    index.insert(keys[i], i);
  covered(32);
  index.set_summary_grain(8);
  covered(8);
  // Grain 32 from a reset on: unlogged chunks pass rarely.
  index.set_summary_grain(32);
  index.reset(8190);
  CHECK_EQ(index.summary.fold(), uint64_t(0));
  for (uint64_t i = 0; i < 32; ++i)
    index.insert(base + 64 * i, i);
  size_t through = 0;
  for (uint64_t i = 0; i < 10000; ++i) // the chunks between them, and far
    through += index.may_contain_block(base + 64 * i + 32 + (i % 32));
  printf("summary: grain 32: %.1f%% of unlogged chunks pass at 32 keys\n",
         double(through) / 100.0);
  CHECK(through < 1200);
  index.set_summary_grain(8);
}

int main() {
  SlotLogIndex index;
  std::mt19937_64 rng(7);
  std::vector<uint64_t> previous;
  const size_t sizes[] = {0, 1, 127, 128, 129, 500, 4095, 6000, 3, 64};
  const uint64_t strides[] = {8, 64, 4096, uint64_t(1) << 20};
  for (int round = 0; round < 3; ++round)
    for (size_t n : sizes)
      for (uint64_t stride : strides) {
        run_transaction(index, rng, n, stride, previous);
        std::vector<uint64_t> keys; // of the finished transaction
        for (size_t i = 0; i < index.nkeys && i < 50; ++i)
          keys.push_back(index.keys[i].key);
        previous = keys;
      }
  // The stamp wraps: the table is really cleared.
  index.stamp = UINT32_MAX - 1;
  for (int i = 0; i < 4; ++i)
    run_transaction(index, rng, 300, 64, previous);
  // One bit per key in 512: about 3% at 16 keys and 6% at 32.
  for (uint64_t stride : {uint64_t(8), uint64_t(32)}) {
    double at16 = summary_pass_rate(index, rng, 16, stride);
    double at32 = summary_pass_rate(index, rng, 32, stride);
    printf("summary: stride %llu: %.1f%% of unlogged keys pass at 16 keys, "
           "%.1f%% at 32\n",
           (unsigned long long)stride, at16, at32);
    CHECK(at16 < 8.0);
    CHECK(at32 < 12.0);
  }
  check_grains(index, rng);
  index.release();
  return check_result("slot_log_index");
}
