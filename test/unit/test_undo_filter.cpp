//===- test_undo_filter.cpp - locations the undo log already holds --------===//
//
// UndoFilter against a model: it may forget a location (a miss only costs a
// second entry), but it must never claim one the attempt has not logged in
// its generation, whatever the sizes, the collisions and the number of
// generations; and a location written again at once is a hit.

#include "check.h"
#include "runtime/base/undo_filter.h"

#include <cstdint>
#include <random>
#include <set>
#include <utility>

using namespace ptm;

int main() {
  UndoFilter f;
  std::mt19937_64 rng(5);
  const size_t sizes[] = {1, 2, 4, 8};
  size_t hits = 0, claims = 0;
  for (int generation = 0; generation < 200; ++generation) {
    f.start();
    std::set<std::pair<uintptr_t, size_t>> logged; // the model
    // (a span of 64K words: far more locations than the filter's slots)
    for (int i = 0; i < 5000; ++i) {
      uintptr_t a = 0x7f0000000000 + (rng() % 65536) * 8 + rng() % 8;
      size_t n = sizes[rng() % 4];
      bool claimed = f.logged_or_record(a, n);
      if (claimed) {
        ++claims;
        CHECK(logged.count({a, n}) == 1); // never a location not logged
      }
      logged.insert({a, n});
      // the same location again at once: it is in the filter now
      CHECK(f.logged_or_record(a, n));
      ++hits;
      // another size at the same address is another location
      size_t m = n == 8 ? 4 : 8;
      if (!logged.count({a, m}))
        CHECK(!f.logged_or_record(a, m));
      logged.insert({a, m});
    }
  }
  // A new generation forgets everything, even after 2^12 more of them.
  f.start();
  CHECK(!f.logged_or_record(0x1000, 8));
  CHECK(f.logged_or_record(0x1000, 8));
  for (int g = 0; g < 5000; ++g)
    f.start();
  CHECK(!f.logged_or_record(0x1000, 8));
  fprintf(stderr, "undo_filter: %zu immediate hits, %zu claims checked\n", hits,
          claims);
  return check_result("undo_filter");
}
