//===- test_slot_log_index.cpp - the slot log's volatile key index --------===//
//
// SlotLogIndex against a std::unordered_map model: transactions of 0 to
// 6000 keys (the table in use starts small and doubles inside them), keys
// that collide in the low bits, resets between transactions (an old key must
// read as absent), and a stamp that wraps.

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
  index.release();
  return check_result("slot_log_index");
}
