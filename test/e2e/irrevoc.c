/* Irrevocability in the middle of an attempt (issue 17, part 3).
 *
 * Each transaction moves an amount between two of the shared accounts. Inside
 * it, a callee (step) fills an array in its own frame through an out-of-line
 * helper (instrumented stores into a live stack frame), calls a function
 * whose frame dies before the switch (stores into a dead frame), may restart
 * its attempt (ptm_restart, at most twice per transaction: aborts injected by
 * the program, before and after it wrote), and then, in every other
 * transaction, calls ext_bump, a function compiled without the plugin: the
 * transaction becomes irrevocable there. After the switch it reads its array
 * back and finishes the transfer. A library whose switch lost a buffered
 * write (to the array, to an account) or exposed one twice breaks a check:
 * the array's sum, the accounts' total, the number of ext_bump calls (one
 * per committed transaction that made the call), the commit count.
 *
 * usage: irrevoc THREADS TRANSACTIONS */
#include "e2e.h"

#include <pthread.h>
#include <string.h>

void ext_bump(long *p); /* unsup_ext.c: no transactional clone */

#define NACC 16
#define NLIVE 24
static long accounts[NACC];
static long ext_count;   /* written by ext_bump only, in place */
static long transfers;   /* committed transfers */
static long live_errors; /* arrays that did not read back */
static long irrevocable_calls;

/* Attempts of the running transaction, outside its control (PTM_PURE: runs
 * uninstrumented, and an abort does not undo it). */
static __thread long attempts;
static long restarted; /* aborts the program injected (all threads) */
PTM_PURE __attribute__((noinline)) static long next_attempt(void) {
  return ++attempts;
}
PTM_PURE __attribute__((noinline)) static void count_restart(void) {
  __atomic_fetch_add(&restarted, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void fill(long *buf, int n, long v) {
  for (int i = 0; i < n; i++)
    buf[i] = v * 31 + i;
}
__attribute__((noinline)) static long sum(const long *buf, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += buf[i];
  return s;
}
static long expected_sum(int n, long v) {
  return n * v * 31 + (long)n * (n - 1) / 2;
}

/* Its frame is dead when step goes on. */
__attribute__((noinline)) static long dead_frame(long v) {
  long tmp[NLIVE];
  fill(tmp, NLIVE, v + 7);
  return sum(tmp, NLIVE);
}

__attribute__((noinline)) static void step(unsigned seed, int switch_now,
                                           int restarts) {
  long live[NLIVE];
  int a = seed % NACC, b = (seed / NACC) % NACC;
  long amount = seed % 97 + 1;
  fill(live, NLIVE, seed);
  long d = dead_frame(seed);
  accounts[a] -= amount;
  long attempt = next_attempt();
  if (attempt <= restarts) { /* an injected abort after some writes */
    count_restart();
    ptm_restart();
  }
  if (switch_now) {
    ext_bump(&ext_count); /* the transaction becomes irrevocable */
    irrevocable_calls++;
  }
  if (sum(live, NLIVE) != expected_sum(NLIVE, seed))
    live_errors++;
  if (d != expected_sum(NLIVE, seed + 7))
    live_errors++;
  fill(live, NLIVE, seed + 1); /* after the switch: in place */
  if (sum(live, NLIVE) != expected_sum(NLIVE, seed + 1))
    live_errors++;
  accounts[b] += amount;
  transfers++;
}

static long per_thread;

static void *worker(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg * 7919u + 1;
  for (long i = 0; i < per_thread; i++) {
    seed = seed * 1103515245u + 12345u;
    int restarts = (int)(i % 3); /* 0, 1 or 2 injected aborts */
    attempts = 0;
    PTM_BEGIN();
    step(seed >> 8, (int)(i & 1), restarts);
    PTM_END();
  }
  return NULL;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  per_thread = argc > 2 ? atol(argv[2]) : 2000;
  if (threads < 1 || threads > 16 || per_thread < 1) {
    fprintf(stderr, "usage: irrevoc THREADS(1-16) TRANSACTIONS\n");
    return 2;
  }
  pthread_t t[16];
  for (int i = 0; i < threads; i++)
    pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)(i + 1));
  for (int i = 0; i < threads; i++)
    pthread_join(t[i], NULL);

  long total = 0;
  for (int i = 0; i < NACC; i++)
    total += accounts[i];
  long n = threads * per_thread;
  CHECK_EQ(total, 0);
  CHECK_EQ(live_errors, 0);
  CHECK_EQ(transfers, n);
  long switches = threads * (per_thread / 2);
  CHECK_EQ(irrevocable_calls, switches);
  CHECK_EQ(ext_count, switches);
  ptm_stats_t s;
  ptm_stats(&s);
  CHECK(restarted >= n / 2, "only %ld injected aborts", restarted);
  CHECK(s.aborts >= (uint64_t)restarted, "aborts %" PRIu64 " < %ld injected",
        s.aborts, restarted);
  return e2e_finish("irrevoc");
}
