//===- test_clone_table.cpp - clone registration and lookup ---------------===//

#include "check.h"
#include "runtime/abi/clone_table.h"

#include <thread>
#include <vector>

static void f_orig() {}
static void f_clone() {}
static void g_orig() {}
static void g_clone() {}
static void g_other_clone() {}
static void unknown() {}

static const void *fp(void (*f)()) { return reinterpret_cast<const void *>(f); }

int main() {
  ptm_clone_entry_t table[] = {{fp(f_orig), fp(f_clone)},
                               {fp(g_orig), fp(g_clone)},
                               {fp(f_orig), fp(f_clone)}}; // duplicate
  __ptm_register_clones(table, 3);
  __ptm_register_clones(table, 2); // a second unit with the same pairs
  ptm_clone_entry_t conflict[] = {{fp(g_orig), fp(g_other_clone)}};
  __ptm_register_clones(conflict, 1); // the first clone stays

  CHECK(ptm::find_clone(fp(f_orig)) == fp(f_clone));
  CHECK(ptm::find_clone(fp(g_orig)) == fp(g_clone));
  CHECK(ptm::find_clone(fp(f_clone)) == fp(f_clone)); // clone -> itself
  CHECK(ptm::find_clone(fp(unknown)) == nullptr);
  CHECK(ptm::find_clone(nullptr) == nullptr);
  CHECK(__ptm_clone_lookup(fp(f_orig), "test") == fp(f_clone));

  // Growth while other threads look up: readers never see a wrong answer.
  static char fake[20000];
  bool stop = false;
  std::thread reader([&] {
    while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
      CHECK(ptm::find_clone(fp(f_orig)) == fp(f_clone));
      const void *c = ptm::find_clone(&fake[2]);
      CHECK(c == nullptr || c == &fake[3]);
    }
  });
  std::vector<ptm_clone_entry_t> many;
  for (size_t i = 0; i + 1 < sizeof fake; i += 2)
    many.push_back({&fake[i], &fake[i + 1]});
  for (size_t i = 0; i < many.size(); i += 100)
    __ptm_register_clones(&many[i], std::min<size_t>(100, many.size() - i));
  __atomic_store_n(&stop, true, __ATOMIC_RELAXED);
  reader.join();
  for (size_t i = 0; i < many.size(); ++i)
    if (ptm::find_clone(many[i].original) != many[i].clone) {
      CHECK(false);
      break;
    }
  // 2 functions per pair (original, and clone -> clone) + the 5 above: the
  // losing clone of g_orig is still a clone, so it maps to itself.
  CHECK_EQ(ptm::clone_table_size(), 2 * many.size() + 5);
  CHECK(ptm::find_clone(fp(g_other_clone)) == fp(g_other_clone));
  return check_result("clone_table");
}
