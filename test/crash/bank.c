/*
 * bank.c - crash workload: transfers between 16 accounts (a transfer moves
 * at most what its source holds, so its effect depends on the order).
 * Invariants: the total is conserved and every account equals its value
 * after exactly the first `done` transfers of the commit order.
 */
#include "workload.h"

#include <ptm.h>
#include <stdio.h>

#define BANK_ACCOUNTS 16
#define BANK_INITIAL 1000

struct bank_root {
  uint64_t done;
  uint64_t accounts[BANK_ACCOUNTS];
};

struct transfer {
  unsigned from, to;
  uint64_t amount;
};

static struct transfer transfer_of(uint64_t seed, uint64_t i) {
  struct transfer t = {(unsigned)(op_rand(seed, i, 0) % BANK_ACCOUNTS),
                       (unsigned)(op_rand(seed, i, 1) % BANK_ACCOUNTS),
                       op_rand(seed, i, 2) % 400};
  return t;
}

static void bank_init(void *p, uint64_t seed) {
  (void)seed;
  struct bank_root *r = p;
  PTM_BEGIN();
  for (int a = 0; a < BANK_ACCOUNTS; a++)
    r->accounts[a] = BANK_INITIAL;
  PTM_END();
}

static uint64_t bank_op(void *p, uint64_t i, uint64_t seed) {
  struct bank_root *r = p;
  struct transfer t = transfer_of(seed, i);
  uint64_t position = 0;
  PTM_BEGIN();
  uint64_t a = r->accounts[t.from];
  uint64_t moved = a < t.amount ? a : t.amount;
  r->accounts[t.from] = a - moved;
  r->accounts[t.to] += moved;
  position = r->done;
  r->done = position + 1;
  PTM_END();
  return position;
}

static int bank_check(const void *p, const uint64_t *order, uint64_t done,
                      uint64_t seed, char *why, size_t n) {
  const struct bank_root *r = p;
  uint64_t model[BANK_ACCOUNTS], total = 0;
  for (int a = 0; a < BANK_ACCOUNTS; a++)
    model[a] = BANK_INITIAL;
  for (uint64_t k = 0; k < done; k++) {
    struct transfer t = transfer_of(seed, order[k]);
    uint64_t moved = model[t.from] < t.amount ? model[t.from] : t.amount;
    model[t.from] -= moved;
    model[t.to] += moved;
  }
  for (int a = 0; a < BANK_ACCOUNTS; a++)
    total += r->accounts[a];
  if (total != (uint64_t)BANK_ACCOUNTS * BANK_INITIAL) {
    snprintf(why, n, "bank: total %llu, expected %llu (money not conserved)",
             (unsigned long long)total,
             (unsigned long long)BANK_ACCOUNTS * BANK_INITIAL);
    return 1;
  }
  for (int a = 0; a < BANK_ACCOUNTS; a++)
    if (r->accounts[a] != model[a]) {
      snprintf(why, n,
               "bank: account %d holds %llu, %llu after the first %llu "
               "transfers",
               a, (unsigned long long)r->accounts[a],
               (unsigned long long)model[a], (unsigned long long)done);
      return 1;
    }
  return 0;
}

static long bank_blocks(const void *p) {
  (void)p;
  return 1; /* the root */
}

const struct workload bank_workload = {"bank",     sizeof(struct bank_root),
                                       bank_init,  bank_op,
                                       bank_check, bank_blocks,
                                       0,          NULL};
