//===- test_captured_blocks.cpp - the blocks an attempt allocated ---------===//
//
// CapturedBlocks against a plain model: blocks added in random and in
// ascending order, searches interleaved with additions (the lazy sort must
// take in every block added since the last search), every byte inside a
// block found, every byte outside none.

#include "check.h"
#include "runtime/base/captured_blocks.h"

#include <cstdint>
#include <random>
#include <vector>

using namespace ptm;

namespace {

struct Model {
  std::vector<MemRange> blocks;
  bool contains(uintptr_t a, size_t n) const {
    for (const MemRange &b : blocks)
      if (a >= b.lo && a + n <= b.hi)
        return true;
    return false;
  }
};

void check_against(const CapturedBlocks &c, const Model &m, std::mt19937 &rng,
                   uintptr_t span) {
  for (int i = 0; i < 500; ++i) {
    uintptr_t a = 0x100000 + rng() % span;
    size_t n = 1 + rng() % 16;
    CHECK_EQ(c.contains(a, n), m.contains(a, n));
  }
  for (const MemRange &b : m.blocks) {
    CHECK(c.contains(b.lo, 1));
    CHECK(c.contains(b.hi - 1, 1));
    CHECK(c.contains(b.lo, b.hi - b.lo));
    MemRange o{};
    CHECK(c.first_overlap(b.lo, b.hi, o));
    CHECK_EQ(o.lo, b.lo);
  }
}

// COUNT disjoint blocks of 16..256 bytes in slots of 512, added in a
// shuffled or an ascending order, searched every STRIDE additions.
void run(bool shuffled, int stride, uintptr_t count) {
  std::mt19937 rng(shuffled ? 7 : 11);
  std::vector<uintptr_t> slots;
  for (uintptr_t s = 0; s < count; ++s)
    slots.push_back(0x100000 + s * 512);
  if (shuffled)
    std::shuffle(slots.begin(), slots.end(), rng);
  CapturedBlocks c;
  Model m;
  for (size_t i = 0; i < slots.size(); ++i) {
    size_t n = 16 + rng() % 241;
    c.add(slots[i], n);
    m.blocks.push_back(MemRange{slots[i], slots[i] + n});
    if (int(i) % stride == 0)
      check_against(c, m, rng, count * 512);
  }
  CHECK_EQ(c.size(), slots.size());
  check_against(c, m, rng, count * 512);
  c.clear();
  CHECK(!c.contains(slots[0], 1));
  CHECK_EQ(c.size(), 0u);
}

} // namespace

int main() {
  run(/*shuffled=*/true, 500, 3000);
  run(/*shuffled=*/true, 1, 200);
  run(/*shuffled=*/false, 700, 3000);
  return check_result("captured_blocks");
}
