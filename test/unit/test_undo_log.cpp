//===- test_undo_log.cpp - undo log and local save log
//---------------------===//

#include "check.h"
#include "runtime/base/undo_log.h"

#include <cstdint>
#include <cstring>
#include <random>

using namespace ptm;

static void test_rollback_restores_every_size() {
  unsigned char memory[4096], original[4096];
  std::mt19937 rng(1);
  for (auto &b : memory)
    b = rng();
  memcpy(original, memory, sizeof memory);

  UndoLog log{};
  for (int round = 0; round < 2000; ++round) {
    size_t at = rng() % 4000;
    switch (rng() % 5) {
    case 0:
      log.append_value(reinterpret_cast<uint8_t *>(memory + at));
      memory[at] = rng();
      break;
    case 1:
      log.append_value(reinterpret_cast<uint16_t *>(memory + at));
      memset(memory + at, rng(), 2);
      break;
    case 2:
      log.append_value(reinterpret_cast<uint32_t *>(memory + at));
      memset(memory + at, rng(), 4);
      break;
    case 3:
      log.append_value(reinterpret_cast<uint64_t *>(memory + at));
      memset(memory + at, rng(), 8);
      break;
    default: {
      size_t n = 1 + rng() % 90; // small and large spans
      log.append_span(memory + at, n);
      memset(memory + at, rng(), n);
    }
    }
  }
  CHECK_EQ(log.size(), 2000u);
  CHECK(memcmp(memory, original, sizeof memory) != 0);
  log.rollback();
  CHECK(memcmp(memory, original, sizeof memory) == 0);
  CHECK(log.empty());
  log.release();
}

static void test_rollback_skips_dead_stack_range() {
  uint64_t live = 1, dead = 2;
  UndoLog log{};
  log.append_value(&live);
  log.append_value(&dead);
  live = 10;
  dead = 20;
  // Pretend `dead` is in a frame below the checkpoint.
  log.rollback(&dead, &dead + 1);
  CHECK_EQ(live, 1u);
  CHECK_EQ(dead, 20u);
  log.release();
}

static void test_same_location_twice_gets_oldest_value() {
  uint32_t x = 7;
  UndoLog log{};
  log.append_value(&x);
  x = 8;
  log.append_value(&x);
  x = 9;
  log.rollback();
  CHECK_EQ(x, 7u);
  log.release();
}

int main() {
  test_rollback_restores_every_size();
  test_rollback_skips_dead_stack_range();
  test_same_location_twice_gets_oldest_value();
  return check_result("undo_log");
}
