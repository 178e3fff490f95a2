/* Threads: a bank of accounts; THREADS threads do random transfers through a
 * same-unit helper (cloned) and audit the total inside transactions. The
 * total is conserved and every transfer commits exactly once.
 * usage: bank THREADS [OPS_PER_THREAD] */
#include "e2e.h"

#include <pthread.h>

#define ACCOUNTS 64
#define INITIAL 1000

static long accounts[ACCOUNTS];
static long transfers_done;
static long audits_bad;

struct worker {
  int id;
  long ops;
  long audits;
};

/* The helper called inside the transaction: cloned by the plugin. */
static void transfer(long *from, long *to, long amount) {
  if (*from >= amount) {
    *from -= amount;
    *to += amount;
  }
}

static long audit(void) {
  long sum = 0;
  for (int i = 0; i < ACCOUNTS; i++)
    sum += accounts[i];
  return sum;
}

static unsigned next_random(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return *state >> 8;
}

static void *run(void *arg) {
  struct worker *w = arg;
  unsigned seed = 0x9e3779b9u * (unsigned)(w->id + 1);
  for (long i = 0; i < w->ops; i++) {
    int a = (int)(next_random(&seed) % ACCOUNTS);
    int b = (int)(next_random(&seed) % ACCOUNTS);
    long amount = (long)(next_random(&seed) % 200);
    if (i % 16 == 0) {
      long sum;
      PTM_BEGIN();
      sum = audit();
      if (sum != (long)ACCOUNTS * INITIAL)
        audits_bad++;
      PTM_END();
      w->audits++;
    }
    PTM_BEGIN();
    transfer(&accounts[a], &accounts[b], amount);
    transfers_done++;
    PTM_END();
  }
  return 0;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  long ops = argc > 2 ? atol(argv[2]) : 20000;
  if (threads < 1 || threads > 64 || ops < 1) {
    fprintf(stderr, "usage: bank THREADS [OPS]\n");
    return 2;
  }
  for (int i = 0; i < ACCOUNTS; i++)
    accounts[i] = INITIAL;
  E2E_RESET();

  pthread_t tid[64];
  struct worker w[64];
  for (int t = 0; t < threads; t++) {
    w[t].id = t;
    w[t].ops = ops;
    w[t].audits = 0;
    CHECK(pthread_create(&tid[t], 0, run, &w[t]) == 0, "pthread_create");
  }
  long audits = 0;
  for (int t = 0; t < threads; t++) {
    pthread_join(tid[t], 0);
    audits += w[t].audits;
  }

  long total = audit();
  CHECK_EQ(total, (long)ACCOUNTS * INITIAL);
  CHECK_EQ(transfers_done, threads * ops);
  CHECK_EQ(audits_bad, 0);
  for (int i = 0; i < ACCOUNTS; i++)
    CHECK(accounts[i] >= 0, "account %d is negative: %ld", i, accounts[i]);
  ptm_stats_t s;
  ptm_stats(&s);
  CHECK_EQ(s.commits, threads * ops + audits);
#ifdef PTM_E2E_TESTRT
  {
    const struct ptm_test_counts *c = ptm_test_counts();
    CHECK_EQ(c->commits, threads * ops + audits);
    CHECK(c->begins == c->commits + c->aborts,
          "begins %llu commits %llu "
          "aborts %llu",
          (unsigned long long)c->begins, (unsigned long long)c->commits,
          (unsigned long long)c->aborts);
    if (e2e_sweep() > 0)
      CHECK(c->injected_aborts > 0, "no injected abort");
    CHECK_EQ(c->clone_misses, 0);
  }
#endif
  return e2e_finish("bank");
}
