//===- test_testrt.cpp - the test runtime's counters and abort sweep ------===//

#include "check.h"
#include "ptm_testrt.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

static uint64_t cells[8];

// A transaction with exactly 10 barriers that allocates and frees.
static void ten_barrier_tx(int *attempts, void **kept) {
  run_tx([&] {
    ++*attempts;
    for (int i = 0; i < 4; ++i) // 8 barriers
      __ptm_write_8(&cells[i], __ptm_read_8(&cells[i]) + 1);
    void *p = __ptm_tx_malloc(16);                                    // 9
    __ptm_tx_free(reinterpret_cast<void *>(__ptm_read_8(&cells[7]))); // 10, 11
    __ptm_write_8(&cells[7], 0);                                      // 12
    *kept = p;
  });
}

static void test_sweep_injects_at_every_nth_barrier() {
  memset(cells, 0, sizeof cells);
  cells[7] = reinterpret_cast<uintptr_t>(malloc(8));
  ptm_test_reset();
  ptm_test_set_abort_sweep(3);
  int attempts = 0;
  void *kept = nullptr;
  ten_barrier_tx(&attempts, &kept);
  ptm_test_set_abort_sweep(0);
  const struct ptm_test_counts *c = ptm_test_counts();
  // 12 barriers, sweep 3: attempts abort at 3, 6, 9, 12; the 5th commits.
  CHECK_EQ(attempts, 5);
  CHECK_EQ(c->injected_aborts, 4u);
  CHECK_EQ(c->aborts, 4u);
  CHECK_EQ(c->begins, 5u);
  CHECK_EQ(c->commits, 1u);
  for (int i = 0; i < 4; ++i)
    CHECK_EQ(cells[i], 1u); // each aborted increment was undone
  CHECK_EQ(cells[7], 0u);
  // Attempt 3 aborts at the malloc call itself (before allocating); 4 and 5
  // allocate, and the block of the aborted attempt 4 is rolled back.
  CHECK_EQ(c->tx_allocs, 2u);
  CHECK_EQ(c->rolled_back_allocs, 1u);
  CHECK_EQ(c->live_tx_allocs, 1u); // the committed block
  CHECK_EQ(c->tx_frees, 2u);       // attempts 4 and 5 reached the free
  CHECK_EQ(c->applied_frees, 1u);
  // Reads per attempt (the aborting barrier counts): 2, 3, 4, 5, 5.
  CHECK_EQ(c->reads[PTM_TEST_SIZE_8], 19u);
  free(kept);
}

static void test_sweep_of_one_still_terminates() {
  ptm_test_reset();
  ptm_test_set_abort_sweep(1);
  int attempts = 0;
  void *kept = nullptr;
  ten_barrier_tx(&attempts, &kept);
  ptm_test_set_abort_sweep(0);
  CHECK_EQ(attempts, 13);
  CHECK_EQ(ptm_test_counts()->injected_aborts, 12u);
  CHECK_EQ(ptm_test_counts()->live_tx_allocs, 1u);
  free(kept);
}

// Commit-time retries: the first K attempts fail at commit and the code
// re-executes through the retry edge (here the do/while), never longjmp.
static void test_commit_retry_counted() {
  ptm_test_reset();
  ptm_test_set_commit_retry(2);
  volatile int attempts = 0; // changed between _setjmp and longjmp
  volatile int longjmps = 0;
  do {
    void *buf = __ptm_tx_checkpoint();
    if (_setjmp(static_cast<__jmp_buf_tag *>(buf)) != 0)
      longjmps = longjmps + 1;
    __ptm_tx_begin("retry");
    attempts = attempts + 1;
    __ptm_read_8(&cells[0]);
  } while (__ptm_tx_commit() != 0);
  ptm_test_set_commit_retry(0);
  CHECK_EQ(attempts, 3);
  CHECK_EQ(longjmps, 0);
  CHECK_EQ(ptm_test_counts()->injected_retries, 2u);
  CHECK_EQ(ptm_test_counts()->injected_aborts, 0u);
  CHECK_EQ(ptm_test_counts()->aborts, 2u);
  CHECK_EQ(ptm_test_counts()->commits, 1u);
}

static void test_irrevocable_never_injected_and_counts() {
  ptm_test_reset();
  ptm_test_set_abort_sweep(1);
  PTM_BEGIN();
  __ptm_write_8(&cells[0], 9); // a barrier in an irrevocable transaction
  PTM_END();
  ptm_test_set_abort_sweep(0);
  const struct ptm_test_counts *c = ptm_test_counts();
  CHECK_EQ(c->injected_aborts, 0u);
  CHECK_EQ(c->region_begins, 1u);
  CHECK_EQ(c->region_ends, 1u);
  CHECK_EQ(c->writes[PTM_TEST_SIZE_8], 1u);

  ptm_test_reset();
  char buf[32] = "abc";
  run_tx([&] {
    __ptm_strlen(buf);
    __ptm_strcpy(buf, "xyz");
    __ptm_memset(buf, 0, 4);
    char tmp[3];
    __ptm_read_n(tmp, buf, 3);
    __ptm_write_n(buf, tmp, 3);
    __ptm_clone_lookup(
        reinterpret_cast<const void *>(&test_commit_retry_counted),
        "test_testrt.cpp:lookup-miss");
    __ptm_unsupported(PTM_UNSUPPORTED_INLINE_ASM, "asm", "test_testrt.cpp:1");
  });
  CHECK_EQ(c->libc[PTM_TEST_STRLEN], 1u);
  CHECK_EQ(c->libc[PTM_TEST_STRCPY], 1u);
  CHECK_EQ(c->libc_total, 2u);
  CHECK_EQ(c->memset, 1u);
  CHECK_EQ(c->reads[PTM_TEST_SIZE_N], 1u);
  CHECK_EQ(c->writes[PTM_TEST_SIZE_N], 1u);
  CHECK_EQ(c->clone_lookups, 1u);
  CHECK_EQ(c->clone_misses, 1u);
  CHECK_EQ(c->unsupported[PTM_UNSUPPORTED_INLINE_ASM], 1u);
  CHECK_EQ(c->irrevocable, 1u);
  CHECK_EQ(c->barriers, 5u);
  CHECK_EQ(c->commits, 1u);
}

int main() {
  CHECK(strcmp(ptm_algorithm(), "testrt") == 0);
  test_sweep_injects_at_every_nth_barrier();
  test_sweep_of_one_still_terminates();
  test_commit_retry_counted();
  test_irrevocable_never_injected_and_counts();
  return check_result("testrt");
}
