/* The RESULT line of STAMP applications: see stamp_result.h. */
#include "stamp_result.h"

#include <stdio.h>

#include "bench_verdict.h"
#include "timer.h"
#include "tm.h"

static ptm_stats_t before, after;
static TIMER_T start, stop;

void stamp_result_start(void) {
  ptm_stats(&before);
  TIMER_READ(start);
}

void stamp_result_stop(void) {
  TIMER_READ(stop);
  ptm_stats(&after);
}

void stamp_result_run(long threads, void (*fn)(void *), void *arg) {
  TM_STARTUP(threads);
  thread_startup(threads);
  stamp_result_start();
  thread_start(fn, arg);
  stamp_result_stop();
  thread_shutdown();
  TM_SHUTDOWN();
}

double stamp_result_seconds(void) { return TIMER_DIFF_SECONDS(start, stop); }

int stamp_result_print(const char *name, long threads, int ok) {
  double secs = stamp_result_seconds();
  unsigned long long commits = after.commits - before.commits;
  unsigned long long aborts = after.aborts - before.aborts;
  double txs = commits ? (double)commits : 1.0;
  printf("RESULT bench=%s lib=%s threads=%ld ops_per_s=%.0f commits=%llu "
         "aborts=%llu clwb_per_tx=%.2f sfence_per_tx=%.2f time_s=%.6f\n",
         name, ptm_algorithm(), threads,
         secs > 0 ? (double)commits / secs : 0.0, commits, aborts,
         (double)(after.clwb - before.clwb) / txs,
         (double)(after.sfence - before.sfence) / txs, secs);
  return bench_verdict(name, ok);
}
