/* Re-execution: read-modify-write transactions on shared data of every access
 * size give exactly the no-abort result under injected aborts; the test
 * runtime's counters prove that aborts happened and that every transaction
 * committed exactly once. */
#include "e2e.h"

#include <string.h>

#define NTX 200
#define NSLOTS 16

struct record {
  uint8_t u8;
  uint16_t u16;
  uint32_t u32;
  uint64_t u64;
  double d;
  float f;
  long double ld; /* an odd-sized access (__ptm_read_n/write_n) */
  char tag[8];
};

static uint64_t counter;
static int slots[NSLOTS];
static struct record rec;
static struct record rec_copy;
static int *slot_ptr = slots;

/* Expected values, computed without transactions. */
static uint64_t x_counter;
static int x_slots[NSLOTS];
static struct record x_rec;

static void step(uint64_t *c, int *s, struct record *r, int i) {
  *c += (uint64_t)i * 3 + 1;
  int a = i % NSLOTS, b = (i * 7 + 3) % NSLOTS;
  int t = s[a];
  s[a] = s[b] + i;
  s[b] = t - 1;
  r->u8 = (uint8_t)(r->u8 + 3);
  r->u16 = (uint16_t)(r->u16 * 3 + 1);
  r->u32 ^= (uint32_t)i * 2654435761u;
  r->u64 += r->u32;
  r->d = r->d * 0.5 + i;
  r->f += 0.25f;
  r->ld += (long double)i / 4;
  r->tag[i % 7] = (char)('a' + i % 26);
}

/* A helper of the same unit, called inside transactions (cloned). */
static void bump_through(int *p, int by) { *p += by; }

/* Counts attempts outside the transaction's control. */
static int attempts;
PTM_PURE __attribute__((noinline)) static int count_attempt(void) {
  return ++attempts;
}

int main(void) {
  for (int i = 0; i < NSLOTS; i++)
    slots[i] = x_slots[i] = i * 10;
  E2E_RESET();

  /* Phase 1: one RMW transaction per step. */
  for (int i = 0; i < NTX; i++) {
    step(&x_counter, x_slots, &x_rec, i);
    PTM_BEGIN();
    step(&counter, slots, &rec, i);
    PTM_END();
  }
  CHECK_EQ(counter, x_counter);
  for (int i = 0; i < NSLOTS; i++)
    CHECK(slots[i] == x_slots[i], "slots[%d] = %d, expected %d", i, slots[i],
          x_slots[i]);
  CHECK_EQ(rec.u8, x_rec.u8);
  CHECK_EQ(rec.u16, x_rec.u16);
  CHECK_EQ(rec.u32, x_rec.u32);
  CHECK_EQ(rec.u64, x_rec.u64);
  CHECK(rec.d == x_rec.d, "d %g != %g", rec.d, x_rec.d);
  CHECK(rec.f == x_rec.f, "f %g != %g", rec.f, x_rec.f);
  CHECK(rec.ld == x_rec.ld, "ld %Lg != %Lg", rec.ld, x_rec.ld);
  CHECK(memcmp(rec.tag, x_rec.tag, sizeof rec.tag) == 0, "tag differs");
  E2E_CHECK_PHASE("rmw", NTX);

  /* Phase 2: struct copy, pointer chase and a same-unit helper. */
  for (int i = 0; i < NTX; i++) {
    PTM_BEGIN();
    rec_copy = rec;
    bump_through(slot_ptr, 1);
    slot_ptr = &slots[(i + 1) % NSLOTS];
    PTM_END();
  }
  CHECK(memcmp(&rec_copy, &rec, sizeof rec) == 0, "struct copy differs");
  long sum = 0, x_sum = 0;
  for (int i = 0; i < NSLOTS; i++) {
    sum += slots[i];
    x_sum += x_slots[i];
  }
  CHECK_EQ(sum, x_sum + NTX);
  CHECK(slot_ptr == &slots[NTX % NSLOTS], "slot_ptr %p", (void *)slot_ptr);
  E2E_CHECK_PHASE("copy", NTX);

  /* Phase 3: ptm_restart on the first attempt of every transaction; the
   * restarted attempt's writes are undone. */
  uint64_t before = counter;
  for (int i = 0; i < 20; i++) {
    attempts = 0;
    PTM_BEGIN();
    counter += 100;
    if (count_attempt() == 1)
      ptm_restart();
    PTM_END();
    CHECK(attempts >= 2, "transaction %d ran %d attempts", i, attempts);
  }
  CHECK_EQ(counter, before + 20 * 100);
#ifdef PTM_E2E_TESTRT
  CHECK_EQ(ptm_test_counts()->restarts, 20);
  CHECK_EQ(ptm_test_counts()->commits, 20);
  ptm_test_reset();
#endif

  /* Phase 4: nested regions join the outer transaction. */
  int inside = 1;
  for (int i = 0; i < 50; i++) {
    PTM_BEGIN();
    counter++;
    PTM_BEGIN();
    counter++;
    inside = inside && ptm_in_transaction();
    PTM_END();
    counter++;
    PTM_END();
  }
  CHECK(inside, "ptm_in_transaction() was 0 inside a nested region");
  CHECK_EQ(counter, before + 2000 + 150);
  CHECK(!ptm_in_transaction(), "still in a transaction");
  E2E_CHECK_PHASE("nested", 50);

  return e2e_finish("reexec");
}
