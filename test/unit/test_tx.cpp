//===- test_tx.cpp - transaction semantics through the ABI ----------------===//
//
// Built once per library (cgl, testrt): restart rolls memory back exactly,
// locals are restored, allocations are rolled back and frees deferred,
// nesting, region markers, region_unwind, ptm_atomic, exceptions.
//
//===----------------------------------------------------------------------===//

#include "check.h"
#include "ptm.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

static unsigned char shared[512];

static void fill(unsigned char *p, size_t n, unsigned char seed) {
  for (size_t i = 0; i < n; ++i)
    p[i] = static_cast<unsigned char>(seed + i * 7);
}

static void test_restart_restores_memory_exactly() {
  fill(shared, sizeof shared, 3);
  unsigned char before[sizeof shared];
  memcpy(before, shared, sizeof shared);
  unsigned char after[sizeof shared];
  int attempts = 0;
  run_tx([&] {
    ++attempts;
    CHECK(memcmp(shared, before, sizeof shared) == 0); // every attempt
    __ptm_write_1(shared + 1, 0xAA);
    __ptm_write_2(shared + 3, 0xBBBB); // unaligned
    __ptm_write_4(shared + 8, 0xCCCCCCCC);
    __ptm_write_8(shared + 16, 0xDDDDDDDDDDDDDDDDull);
    unsigned char big[100];
    memset(big, 0xEE, sizeof big);
    __ptm_write_n(shared + 40, big, sizeof big);
    __ptm_memset(shared + 200, 0x11, 50);
    __ptm_memcpy(shared + 300, shared + 40, 60);
    __ptm_memmove(shared + 41, shared + 40, 80); // overlapping
    CHECK_EQ(__ptm_read_8(shared + 16), 0xDDDDDDDDDDDDDDDDull);
    CHECK_EQ(__ptm_read_4(shared + 8), 0xCCCCCCCCu);
    CHECK_EQ(__ptm_read_2(shared + 3), 0xBBBB);
    CHECK_EQ(__ptm_read_1(shared + 1), 0xAA);
    if (attempts < 3)
      ptm_restart();
    memcpy(after, shared, sizeof shared);
  });
  CHECK_EQ(attempts, 3);
  CHECK(memcmp(shared, after, sizeof shared) == 0);
  CHECK(!ptm_in_transaction());
}

// Every location written many times an attempt, in sizes that overlap, over
// more words than an undo filter has slots (runtime/base/undo_filter.h):
// each restart must give back exactly the memory before the transaction, and
// each new attempt must log its locations again.
static uint64_t many[16384];

static void test_repeated_writes_restore_the_oldest_bytes() {
  for (size_t i = 0; i < 16384; ++i)
    many[i] = i * 0x9E3779B97F4A7C15ull;
  uint64_t before[16384];
  memcpy(before, many, sizeof many);
  int attempts = 0;
  run_tx([&] {
    ++attempts;
    CHECK(memcmp(many, before, sizeof many) == 0); // every attempt
    for (int pass = 0; pass < 3; ++pass)
      for (size_t i = 0; i < 16384; i += 1 + pass) {
        auto *w = reinterpret_cast<unsigned char *>(&many[i]);
        __ptm_write_8(w, uint64_t(pass) << 32 | i);
        __ptm_write_4(w + 4, uint32_t(attempts));
        __ptm_write_1(w + 1, uint8_t(pass));
        __ptm_write_8(w, __ptm_read_8(w) + 1);
      }
    __ptm_memset(many + 100, 0x5A, 512);
    __ptm_write_8(many + 101, 7);
    if (attempts < 3)
      ptm_restart();
  });
  CHECK_EQ(attempts, 3);
  CHECK_EQ(many[101], 7u);
  CHECK(!ptm_in_transaction());
}

static void test_allocation_rollback_and_deferred_free() {
  ptm_stats_t before, after;
  ptm_stats(&before);
  void *kept = nullptr;
  int attempts = 0;
  static void *slot;
  slot = malloc(32);
  void *old = slot;
  run_tx([&] {
    ++attempts;
    void *p = __ptm_tx_malloc(64);
    CHECK(p != nullptr);
    char *s = __ptm_strdup("hello");
    CHECK(s && strcmp(s, "hello") == 0);
    void *q = nullptr;
    CHECK_EQ(__ptm_tx_posix_memalign(&q, 64, 100), 0);
    CHECK(q && reinterpret_cast<uintptr_t>(q) % 64 == 0);
    CHECK_EQ(__ptm_tx_posix_memalign(&q, 3, 100), EINVAL);
    void *z = __ptm_tx_calloc(10, 10);
    CHECK(z && static_cast<char *>(z)[99] == 0);
    __ptm_tx_free(__ptm_tx_realloc(z, 200));
    __ptm_tx_free(q);
    __ptm_tx_free(s);
    __ptm_tx_free(__ptm_tx_realloc(nullptr, 8));
    __ptm_tx_free(__ptm_read_8(&slot)
                      ? reinterpret_cast<void *>(__ptm_read_8(&slot))
                      : nullptr);
    __ptm_write_8(&slot, 0);
    if (attempts == 1)
      ptm_restart(); // everything above is undone; the free did not happen
    kept = p;
  });
  CHECK(slot == nullptr);
  CHECK(kept != nullptr);
  CHECK(old != nullptr);
  ptm_stats(&after);
  CHECK(after.allocs - before.allocs >= 12);
  CHECK(after.frees - before.frees >= 10);
  CHECK_EQ(after.aborts - before.aborts, 1u);
  free(kept);
}

// A block the attempt allocated and frees goes back to the heap at once
// (cgl, and testrt, which is cgl): the heap hands it to someone else (here a
// plain malloc, as another thread's would), who writes it; the restart must
// not write the attempt's old bytes back into it.
static void test_own_block_freed_at_once_is_left_alone_by_rollback() {
  ptm_stats_t before, after;
  ptm_stats(&before);
  int attempts = 0;
  unsigned char *other = nullptr;
  bool reused = false;
  run_tx([&] {
    ++attempts;
    auto *p = static_cast<unsigned char *>(__ptm_tx_malloc(96));
    for (int i = 0; i < 96; i += 8)
      __ptm_write_8(p + i, 0x1111111111111111ull * (i / 8 + 1));
    __ptm_memset(p + 16, 0x22, 32);
    __ptm_tx_free(p);
    if (attempts == 1) {
      other = static_cast<unsigned char *>(malloc(96)); // not transactional
      reused = other == p;
      memset(other, 0x77, 96);
      ptm_restart();
    }
  });
  CHECK_EQ(attempts, 2);
  CHECK(reused); // (glibc hands the block just freed out again)
  for (int i = 0; i < 96; ++i)
    CHECK_EQ(other[i], 0x77);
  free(other);
  ptm_stats(&after);
  CHECK_EQ(after.frees - before.frees, 2u);
}

static void test_new_throws_and_nothrow_returns_null() {
  bool threw = false;
  run_tx([&] {
    CHECK(__ptm_tx_new_nothrow(SIZE_MAX / 2) == nullptr);
    CHECK(__ptm_tx_new_aligned_nothrow(SIZE_MAX / 2, 64) == nullptr);
    void *p = __ptm_tx_new_aligned(10, 128);
    CHECK(reinterpret_cast<uintptr_t>(p) % 128 == 0);
    __ptm_tx_delete(p);
    try {
      __ptm_tx_new(SIZE_MAX / 2);
    } catch (const std::bad_alloc &) {
      threw = true;
    }
  });
  CHECK(threw);
}

static void test_nesting_and_depth() {
  CHECK_EQ(__ptm_region_depth(), 0);
  run_tx([&] {
    CHECK_EQ(__ptm_region_depth(), 1);
    CHECK(ptm_in_transaction());
    run_tx([&] { CHECK_EQ(__ptm_region_depth(), 2); });
    CHECK_EQ(__ptm_region_depth(), 1);
  });
  CHECK_EQ(__ptm_region_depth(), 0);
}

static uint64_t unwind_cell;

static void test_region_unwind() {
  // An exception out of the outermost region rolls everything back.
  unwind_cell = 1;
  void *block = nullptr;
  bool caught = false;
  try {
    ptm::detail::region_guard guard;
    void *buf = __ptm_tx_checkpoint();
    __ptm_setjmp(buf);
    __ptm_tx_begin("unwind");
    __ptm_write_8(&unwind_cell, 2);
    block = __ptm_tx_malloc(16);
    throw std::runtime_error("leave");
  } catch (const std::runtime_error &) {
    caught = true;
  }
  CHECK(caught);
  CHECK_EQ(unwind_cell, 1u);
  CHECK_EQ(__ptm_region_depth(), 0);
  CHECK(block != nullptr);

  // Out of an inner region: only the depth is restored.
  run_tx([&] {
    __ptm_write_8(&unwind_cell, 3);
    try {
      ptm::detail::region_guard inner;
      __ptm_tx_begin("inner");
      CHECK_EQ(__ptm_region_depth(), 2);
      throw 1;
    } catch (int) {
    }
    CHECK_EQ(__ptm_region_depth(), 1);
  });
  CHECK_EQ(unwind_cell, 3u);

  // Normal scope exit: depth == d, nothing happens.
  __ptm_region_unwind(0);
  CHECK_EQ(__ptm_region_depth(), 0);

  // The lock was released: a new transaction can start.
  run_tx([&] { __ptm_write_8(&unwind_cell, 4); });
  CHECK_EQ(unwind_cell, 4u);
}

// An abort resumes the checkpoint that __ptm_setjmp saved, with the
// callee-saved registers of that moment (the locals kept in them across the
// calls), and one that glibc's _setjmp saved (code of ABI version 2), also in
// the same buffer right after a __ptm_setjmp (whose tag must not send it to
// the wrong restore).
template <bool Glibc> __attribute__((noinline)) unsigned restart_twice() {
  static uint64_t cell;
  cell = 5;
  volatile unsigned attempts = 0;
  if (Glibc) { // (the thread's buffer, tagged by an earlier __ptm_setjmp)
    void *buf = __ptm_tx_checkpoint();
    __ptm_setjmp(buf);
  }
  uint64_t seed = cell * 3; // lives in a callee-saved register
  do {
    void *buf = __ptm_tx_checkpoint();
    if (Glibc)
      _setjmp(static_cast<__jmp_buf_tag *>(buf));
    else
      __ptm_setjmp(buf);
    __ptm_tx_begin(Glibc ? "glibc checkpoint" : "ptm checkpoint");
    attempts = attempts + 1;
    CHECK_EQ(__ptm_read_8(&cell), 5u);
    __ptm_write_8(&cell, seed + attempts);
    if (attempts < 3)
      ptm_restart();
  } while (__ptm_tx_commit() != 0);
  CHECK_EQ(cell, 15u + 3);
  CHECK_EQ(seed, 15u);
  return attempts;
}

static void test_abort_resumes_both_checkpoint_forms() {
  CHECK_EQ(restart_twice<false>(), 3u);
  CHECK_EQ(restart_twice<true>(), 3u);
  CHECK_EQ(restart_twice<false>(), 3u);
  CHECK(!ptm_in_transaction());
}

static void test_region_markers_run_irrevocably() {
  static int cell = 0;
  PTM_BEGIN();
  CHECK_EQ(__ptm_region_depth(), 1);
  cell = 5;
  PTM_BEGIN(); // nested
  CHECK_EQ(__ptm_region_depth(), 2);
  PTM_END();
  PTM_END();
  CHECK_EQ(__ptm_region_depth(), 0);
  CHECK_EQ(cell, 5);
  CHECK_EQ(ptm::atomic([] { return 42; }), 42);
}

static int atomic_calls;
static void atomic_body(void *arg) {
  ++atomic_calls;
  __ptm_write_4(arg, __ptm_read_4(arg) + 1);
  if (atomic_calls == 1)
    ptm_restart();
}

static void test_ptm_atomic() {
  static uint32_t value = 0;
  atomic_calls = 0;
  ptm_atomic(atomic_body, &value); // restarts once, then commits
  CHECK_EQ(value, 1u);
  CHECK_EQ(atomic_calls, 2);
  // Nested: joins the running transaction.
  run_tx([&] {
    atomic_calls = 5;
    ptm_atomic(atomic_body, &value);
  });
  CHECK_EQ(value, 2u);
}

int main() {
  // atomic_body is "instrumented" (it calls the barriers itself): register it
  // as its own clone so ptm_atomic can restart it.
  ptm_clone_entry_t self[] = {{reinterpret_cast<const void *>(atomic_body),
                               reinterpret_cast<const void *>(atomic_body)}};
  __ptm_register_clones(self, 1);
  test_restart_restores_memory_exactly();
  test_repeated_writes_restore_the_oldest_bytes();
  test_allocation_rollback_and_deferred_free();
  test_own_block_freed_at_once_is_left_alone_by_rollback();
  test_new_throws_and_nothrow_returns_null();
  test_nesting_and_depth();
  test_region_unwind();
  test_abort_resumes_both_checkpoint_forms();
  test_region_markers_run_irrevocably();
  test_ptm_atomic();
  return check_result("tx");
}
