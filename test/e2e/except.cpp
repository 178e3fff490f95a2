// An exception leaving a transaction rolls it back and propagates with its
// value; a later transaction works. usage: except CASE, where CASE is
//   value      the caught exception carries the value it was thrown with
//              (a user-defined struct, an int)
//   stdvalue   the same for std::runtime_error and std::out_of_range
//   extern     writes to globals with external linkage are rolled back
//   internal   writes to internal (non-escaping) globals are rolled back
//   atomic     the same through ptm::atomic
#include "e2e.h"

#include <cstring>
#include <stdexcept>
#include <string>

struct Error {
  int code;
  long payload[4];
};

long ext_value = 100;
long ext_other = 5;
namespace {
long int_value = 100;
long int_other = 5;
} // namespace

// Not inlined, so that the throw happens in a cloned callee.
__attribute__((noinline)) void fail_if(bool cond, int code) {
  if (cond)
    throw Error{code, {1, 2, 3, code * 10L}};
}

// A macro, not a function taking references: the internal globals must not
// escape (their address is never taken in this program).
#define CHECK_AFTER(value, other, caught)                                      \
  do {                                                                         \
    CHECK_EQ(caught, 1);                                                       \
    CHECK_EQ(value, 100);                                                      \
    CHECK_EQ(other, 5);                                                        \
    CHECK(!ptm_in_transaction(), "still in a transaction after the throw");    \
    CHECK_UNWIND();                                                            \
    /* A later transaction works. */                                           \
    PTM_BEGIN();                                                               \
    value += 1;                                                                \
    other += 1;                                                                \
    PTM_END();                                                                 \
    CHECK_EQ(value, 101);                                                      \
    CHECK_EQ(other, 6);                                                        \
    E2E_CHECK_PHASE("later", 1);                                               \
  } while (0)

#ifdef PTM_E2E_TESTRT
#define CHECK_UNWIND()                                                         \
  do {                                                                         \
    CHECK_EQ(ptm_test_counts()->unwind_rollbacks, 1);                          \
    CHECK_EQ(ptm_test_counts()->commits, 0);                                   \
    ptm_test_reset();                                                          \
  } while (0)
#else
#define CHECK_UNWIND() ((void)0)
#endif

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  E2E_RESET();
  int caught = 0;
  if (!strcmp(which, "value")) {
    Error got{};
    try {
      PTM_BEGIN();
      ext_value = 1;
      fail_if(ext_value == 1, 7);
      PTM_END();
    } catch (const Error &e) {
      caught = 1;
      got = e;
    }
    CHECK_EQ(caught, 1);
    CHECK_EQ(got.code, 7);
    CHECK(got.payload[0] == 1 && got.payload[1] == 2 && got.payload[2] == 3 &&
              got.payload[3] == 70,
          "payload %ld %ld %ld %ld", got.payload[0], got.payload[1],
          got.payload[2], got.payload[3]);
    caught = 0;
    try {
      PTM_BEGIN();
      ext_other += 1;
      throw 42;
      PTM_END();
    } catch (int v) {
      caught = v;
    }
    CHECK_EQ(caught, 42);
    CHECK_EQ(ext_other, 5);
  } else if (!strcmp(which, "stdvalue")) {
    std::string what;
    try {
      PTM_BEGIN();
      ext_value = 1;
      if (ext_value == 1)
        throw std::runtime_error("boom in a transaction");
      PTM_END();
    } catch (const std::runtime_error &e) {
      caught = 1;
      what = e.what();
    }
    CHECK_EQ(caught, 1);
    CHECK(what == "boom in a transaction", "what() = '%s'", what.c_str());
    CHECK_EQ(ext_value, 100);
    caught = 0;
    try {
      PTM_BEGIN();
      ext_other = 1;
      throw std::out_of_range("index 7");
      PTM_END();
    } catch (const std::logic_error &e) {
      caught = 1;
      what = e.what();
    }
    CHECK_EQ(caught, 1);
    CHECK(what == "index 7", "what() = '%s'", what.c_str());
    CHECK_EQ(ext_other, 5);
  } else if (!strcmp(which, "extern")) {
    try {
      PTM_BEGIN();
      ext_value = 1;
      ext_other += 1000;
      fail_if(ext_value == 1, 7);
      ext_value = 2;
      PTM_END();
    } catch (...) {
      caught = 1;
    }
    CHECK_AFTER(ext_value, ext_other, caught);
  } else if (!strcmp(which, "internal")) {
    try {
      PTM_BEGIN();
      int_value = 1;
      int_other += 1000;
      fail_if(int_value == 1, 7);
      int_value = 2;
      PTM_END();
    } catch (...) {
      caught = 1;
    }
    CHECK_AFTER(int_value, int_other, caught);
  } else if (!strcmp(which, "atomic")) {
    try {
      ptm::atomic([] {
        ext_value = -5;
        ext_other = -5;
        fail_if(true, 9);
      });
    } catch (...) {
      caught = 1;
    }
    CHECK_AFTER(ext_value, ext_other, caught);
  } else {
    fprintf(stderr, "usage: except value|stdvalue|extern|internal|atomic\n");
    return 2;
  }
  return e2e_finish("except");
}
