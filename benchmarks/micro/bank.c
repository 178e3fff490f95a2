/*
 * bank: random transfers between accounts, the microbenchmark of the Crafty
 * paper (from NV-HTM): each transaction makes W/2 transfers, W persistent
 * writes (default 5 transfers, 10 writes), between cache-line-aligned
 * accounts. Contention is set by the number of accounts (Crafty: 1,024 high,
 * 4,096 medium) or removed by -p, which partitions the accounts among the
 * threads (no conflicts). With -u below 100, the other transactions only read
 * W accounts (an audit). Validation: the total of all balances is conserved.
 *
 *   bank [common options] [-a ACCOUNTS] [-w WRITES] [-p]
 *   (-k is the same as -a; -u is the percentage of transfer transactions)
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

#define INITIAL_BALANCE 1000
#define MAX_WRITES 1024

struct account {
  long balance;
  char pad[64 - sizeof(long)];
} __attribute__((aligned(64)));

struct bank_root {
  long naccounts;
  struct account *accounts;
};

static struct bank_root *bank;
static long writes = 10;
static int partitioned;

static int bank_option(int opt, const char *arg) {
  switch (opt) {
  case 'a':
    bench.key_range = bench_parse_long("-a", arg, 2, 1L << 32);
    return 1;
  case 'w':
    writes = bench_parse_long("-w", arg, 2, MAX_WRITES);
    if (writes % 2) {
      fprintf(stderr, "bank: -w must be even (two writes per transfer)\n");
      return 0;
    }
    return 1;
  case 'p':
    partitioned = 1;
    return 1;
  }
  return 0;
}

static void worker(bench_thread_t *t) {
  long base = 0, n = bank->naccounts;
  if (partitioned) {
    long share = bank->naccounts / bench.threads;
    base = t->id * share;
    n = share;
  }
  struct account *accounts = bank->accounts;
  long idx[MAX_WRITES];
  while (bench_continue(t)) {
    for (long i = 0; i < writes; i += 2) {
      idx[i] = base + bench_rand_below(t, n);
      do
        idx[i + 1] = base + bench_rand_below(t, n);
      while (idx[i + 1] == idx[i]);
    }
    long amount = 1 + bench_rand_below(t, 50);
    if (bench_rand_below(t, 100) < bench.update) {
      PTM_BEGIN();
      for (long i = 0; i < writes; i += 2) {
        accounts[idx[i]].balance -= amount;
        accounts[idx[i + 1]].balance += amount;
      }
      PTM_END();
      t->count[0]++;
    } else {
      long sum = 0;
      PTM_BEGIN();
      sum = 0;
      for (long i = 0; i < writes; i++)
        sum += accounts[idx[i]].balance;
      PTM_END();
      t->count[1] += sum;
    }
    t->ops++;
  }
}

int main(int argc, char **argv) {
  bench.key_range = 1024;
  bench.update = 100;
  bench_parse(argc, argv, "bank", "a:w:p", " [-a ACCOUNTS] [-w WRITES] [-p]",
              bank_option);
  long naccounts = bench.key_range;
  if (partitioned && naccounts / bench.threads < 2) {
    fprintf(stderr, "bank: -p needs at least 2 accounts per thread\n");
    return 2;
  }

  bank = bench_root("bank", sizeof *bank);
  PTM_BEGIN();
  bank->naccounts = naccounts;
  bank->accounts = ptm_aligned_alloc(64, naccounts * sizeof(struct account));
  if (bank->accounts)
    for (long i = 0; i < naccounts; i++)
      bank->accounts[i].balance = INITIAL_BALANCE;
  PTM_END();
  if (!bank->accounts) {
    fprintf(stderr, "bank: cannot allocate %ld accounts\n", naccounts);
    return 1;
  }

  bench_run(worker);

  long total = 0;
  for (long i = 0; i < naccounts; i++)
    total += bank->accounts[i].balance;
  int ok = total == naccounts * INITIAL_BALANCE;
  if (!ok)
    fprintf(stderr, "bank: total %ld, expected %ld\n", total,
            naccounts * INITIAL_BALANCE);
  else
    printf("bank: %ld accounts, %ld transfers of %ld writes, total %ld "
           "conserved\n",
           naccounts, bench_sum(0), writes, total);
  return bench_finish("bank", ok);
}
