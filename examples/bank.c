/*
 * bank: the ptm example. Threads move money between accounts with
 * transactions written as ordinary C between PTM_BEGIN() and PTM_END(); the
 * plugin makes every access transactional, the linked library decides how.
 * At the end the total must be what it was at the start, and each account's
 * history (the transfer log kept in the same transactions) must add up.
 *
 *   bank [-t THREADS] [-n TRANSFERS_PER_THREAD] [-a ACCOUNTS]
 *
 * With a persistent library the bank lives in the pool (PTM_POOL names the
 * file; a private temporary pool otherwise): a second run on the same pool
 * continues with the accounts of the first.
 */
#include <ptm.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct account {
  long balance;
  long transfers; /* how many transfers touched this account */
};

struct bank {
  long naccounts;
  long committed; /* transfers committed, counted inside the transactions */
  struct account *accounts;
};

static struct bank *bank;
static long transfers_per_thread = 100000;

/* Called inside transactions: the plugin makes a transactional clone. */
static int withdraw(struct account *a, long amount) {
  if (a->balance < amount)
    return 0;
  a->balance -= amount;
  a->transfers++;
  return 1;
}

static void deposit(struct account *a, long amount) {
  a->balance += amount;
  a->transfers++;
}

static void *worker(void *arg) {
  unsigned seed = (unsigned)(size_t)arg * 7919u + 17u;
  for (long i = 0; i < transfers_per_thread; i++) {
    long from = rand_r(&seed) % bank->naccounts;
    long to = rand_r(&seed) % bank->naccounts;
    long amount = 1 + rand_r(&seed) % 50;
    PTM_BEGIN();
    if (from != to && withdraw(&bank->accounts[from], amount)) {
      deposit(&bank->accounts[to], amount);
      bank->committed++;
    }
    PTM_END();
  }
  return NULL;
}

static long parse(const char *opt, const char *s, long min) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < min) {
    fprintf(stderr, "bank: bad value '%s' for %s (integer >= %ld)\n", s, opt,
            min);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  long threads = 2, naccounts = 1024;
  for (int i = 1; i < argc; i++) {
    if (i + 1 < argc && !strcmp(argv[i], "-t"))
      threads = parse("-t", argv[++i], 1);
    else if (i + 1 < argc && !strcmp(argv[i], "-n"))
      transfers_per_thread = parse("-n", argv[++i], 0);
    else if (i + 1 < argc && !strcmp(argv[i], "-a"))
      naccounts = parse("-a", argv[++i], 2);
    else {
      fprintf(stderr,
              "usage: bank [-t THREADS] [-n TRANSFERS] [-a ACCOUNTS]\n");
      return 2;
    }
  }
  if (threads > 1024) {
    fprintf(stderr, "bank: at most 1024 threads\n");
    return 2;
  }

  const long initial = 1000;
  bank = ptm_root(sizeof *bank);
  if (!bank) {
    fprintf(stderr, "bank: no root object\n");
    return 1;
  }
  /* A persistent pool that already holds a bank (PTM_POOL named an existing
   * file): continue with its accounts; the checks below hold across runs. */
  int reopened = 0;
  PTM_BEGIN();
  if (bank->accounts) {
    reopened = 1;
    naccounts = bank->naccounts;
  } else {
    bank->naccounts = naccounts;
    bank->committed = 0;
    bank->accounts = ptm_calloc(naccounts, sizeof(struct account));
    for (long i = 0; i < naccounts; i++)
      bank->accounts[i].balance = initial;
  }
  PTM_END();
  if (reopened)
    printf("bank: reopened the pool: %ld accounts, %ld transfers committed by "
           "earlier runs\n",
           naccounts, bank->committed);

  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pthread_t tid[1024];
  for (long i = 0; i < threads; i++)
    if (pthread_create(&tid[i], NULL, worker, (void *)(size_t)i) != 0) {
      fprintf(stderr, "bank: cannot create thread %ld\n", i);
      return 1;
    }
  for (long i = 0; i < threads; i++)
    pthread_join(tid[i], NULL);
  clock_gettime(CLOCK_MONOTONIC, &t1);

  long total = 0, touches = 0;
  for (long i = 0; i < naccounts; i++) {
    total += bank->accounts[i].balance;
    touches += bank->accounts[i].transfers;
  }
  double secs =
      (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
  printf(
      "bank: library %s, %ld threads, %ld accounts, %ld transfers attempted, "
      "%ld committed, %.0f tx/s\n",
      ptm_algorithm(), threads, naccounts, threads * transfers_per_thread,
      bank->committed, secs > 0 ? threads * transfers_per_thread / secs : 0.0);
  int ok = 1;
  if (total != naccounts * initial) {
    fprintf(stderr, "bank: FAILED: total %ld, expected %ld\n", total,
            naccounts * initial);
    ok = 0;
  }
  if (touches != 2 * bank->committed) {
    fprintf(stderr, "bank: FAILED: %ld account updates for %ld transfers\n",
            touches, bank->committed);
    ok = 0;
  }
  if (ok)
    printf("bank: OK: total %ld conserved, %ld account updates = 2 x %ld "
           "transfers\n",
           total, touches, bank->committed);
  ptm_stats_t st;
  ptm_stats(&st);
  double txs = st.commits ? (double)st.commits : 1.0;
  printf("RESULT bench=bank lib=%s threads=%ld ops_per_s=%.0f commits=%llu "
         "aborts=%llu clwb_per_tx=%.2f sfence_per_tx=%.2f\n",
         ptm_algorithm(), threads,
         secs > 0 ? threads * transfers_per_thread / secs : 0.0,
         (unsigned long long)st.commits, (unsigned long long)st.aborts,
         st.clwb / txs, st.sfence / txs);
  ptm_stats_print(stdout);
  return ok ? 0 : 1;
}
