//===- test_libc.cpp - transactional libc versions against libc -----------===//
//
// Checks TxLibc twice: instantiated over a byte-counting accessor with plain
// reads disabled (the generic code path of word-based algorithms), and
// through the library's __ptm_* entry points inside a transaction.
//
//===----------------------------------------------------------------------===//

#include "check.h"
#include "runtime/abi/tx_libc.h"

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

struct GenericAccess {
  static constexpr bool kPlainReads = false;
  static inline size_t loads;
  static uint8_t load8(const void *p) {
    ++loads;
    return *static_cast<const uint8_t *>(p);
  }
  static uint64_t load64(const void *p) {
    ++loads;
    CHECK(reinterpret_cast<uintptr_t>(p) % 8 == 0);
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
  }
  static void read_bytes(void *d, const void *s, size_t n) { memcpy(d, s, n); }
  static void write_bytes(void *d, const void *s, size_t n) {
    memmove(d, s, n);
  }
  static void *allocate(size_t n) { return malloc(n); }
};
using Generic = ptm::TxLibc<GenericAccess>;

int sign(int x) { return (x > 0) - (x < 0); }

std::string random_string(std::mt19937 &rng, size_t max_len) {
  static const char alphabet[] = "abcab\x80\xff z";
  size_t n = rng() % (max_len + 1);
  std::string s;
  for (size_t i = 0; i < n; ++i)
    s += alphabet[rng() % (sizeof alphabet - 1)];
  return s;
}

// Compares both implementations (T: Generic, or the __ptm_ entry points
// selected by USE_ABI) with libc on strings A and B.
template <bool UseAbi>
void compare(const std::string &a, const std::string &b, size_t n) {
  // Copies at varying offsets exercise the unaligned heads of strlen.
  std::vector<char> abuf(a.size() + 64 + n), bbuf(b.size() + 1);
  char *pa = abuf.data() + (a.size() % 8);
  memcpy(pa, a.c_str(), a.size() + 1);
  memcpy(bbuf.data(), b.c_str(), b.size() + 1);
  const char *sa = pa, *sb = bbuf.data();
  int c = b.empty() ? 'a' : static_cast<unsigned char>(b[0]);

#define CALL(name, ...)                                                        \
  (UseAbi ? __ptm_##name(__VA_ARGS__) : Generic::name(__VA_ARGS__))
  CHECK_EQ(CALL(strlen, sa), strlen(sa));
  CHECK_EQ(CALL(strnlen, sa, n), strnlen(sa, n));
  CHECK_EQ(sign(CALL(strcmp, sa, sb)), sign(strcmp(sa, sb)));
  CHECK_EQ(sign(CALL(strncmp, sa, sb, n)), sign(strncmp(sa, sb, n)));
  size_t m = std::min(a.size(), b.size());
  CHECK_EQ(sign(CALL(memcmp, sa, sb, m)), sign(memcmp(sa, sb, m)));
  CHECK(CALL(memchr, sa, c, a.size()) == memchr(sa, c, a.size()));
  CHECK(CALL(strchr, sa, c) == strchr(sa, c));
  CHECK(CALL(strchr, sa, 0) == strchr(sa, 0));
  CHECK(CALL(strrchr, sa, c) == strrchr(sa, c));
  CHECK(CALL(strstr, sa, sb) == strstr(sa, sb));
  CHECK_EQ(CALL(strspn, sa, sb), strspn(sa, sb));
  CHECK_EQ(CALL(strcspn, sa, sb), strcspn(sa, sb));
  CHECK(CALL(strpbrk, sa, sb) == strpbrk(sa, sb));

  // Writers: same bytes in the whole destination buffer as libc.
  size_t cap = a.size() + b.size() + n + 8;
  std::vector<char> mine(cap, 'Q'), ref(cap, 'Q');
  CHECK(CALL(strcpy, mine.data(), sa) == mine.data());
  strcpy(ref.data(), sa);
  CHECK(mine == ref);
  CHECK(CALL(strcat, mine.data(), sb) == mine.data());
  strcat(ref.data(), sb);
  CHECK(mine == ref);
  CHECK(CALL(strncat, mine.data(), sa, n) == mine.data());
  strncat(ref.data(), sa, n);
  CHECK(mine == ref);
  CHECK(CALL(stpcpy, mine.data(), sb) ==
        stpcpy(ref.data(), sb) - ref.data() + mine.data());
  CHECK(mine == ref);
  std::fill(mine.begin(), mine.end(), 'Q');
  std::fill(ref.begin(), ref.end(), 'Q');
  CHECK(CALL(strncpy, mine.data(), sa, n) == mine.data());
  strncpy(ref.data(), sa, n);
  CHECK(mine == ref);

  char *d = CALL(strdup, sa);
  CHECK(d && strcmp(d, sa) == 0);
  char *e = CALL(strndup, sa, n);
  CHECK(e && strncmp(e, sa, n) == 0 && strlen(e) == strnlen(sa, n));
  if (!UseAbi) { // inside a transaction these are the runtime's to free
    free(d);
    free(e);
  }
#undef CALL
}

void run_all(bool use_abi) {
  std::mt19937 rng(42);
  for (int i = 0; i < 3000; ++i) {
    std::string a = random_string(rng, 40), b = random_string(rng, 4);
    if (i % 3 == 0 && !a.empty())
      b = a.substr(rng() % a.size(), 1 + rng() % 3); // likely substring
    if (i % 7 == 0)
      b = a; // equal strings
    size_t n = rng() % 50;
    if (use_abi) {
      // The library's entry points (one transaction per case).
      run_tx([&] { compare<true>(a, b, n); });
    } else {
      compare<false>(a, b, n);
    }
  }
}

} // namespace

int main() {
  run_all(false);
  CHECK(GenericAccess::loads > 0);
  run_all(true);
  return check_result("libc");
}
