/* Shared benchmark driver: see bench.h. */
#include "bench.h"
#include "bench_verdict.h"
#include "parse_number.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

bench_opts_t bench = {.threads = 1,
                      .duration = 1.0,
                      .ops = 0,
                      .key_range = 1024,
                      .update = 20,
                      .seed = 1};
atomic_int bench_stop_flag;

static const char *bench_name = "bench";
static const char *bench_extra_usage = "";
static bench_thread_t *threads;
static ptm_stats_t stats_before;
static double elapsed; /* seconds of the measured phase */

static void usage(void) {
  fprintf(stderr,
          "usage: %s [-t THREADS] [-d SECONDS | -n OPS_PER_THREAD] "
          "[-k KEY_RANGE] [-u UPDATE_PERCENT] [-s SEED]%s\n"
          "  defaults: -t %ld -d %g -k %ld -u %ld -s %lu\n",
          bench_name, bench_extra_usage, bench.threads, bench.duration,
          bench.key_range, bench.update, bench.seed);
  exit(2);
}

long bench_parse_long(const char *opt, const char *s, long min, long max) {
  long v = 0;
  if (!parse_long_opt(bench_name, opt, s, min, max, &v))
    usage();
  return v;
}

static double parse_seconds(const char *s) {
  double v = 0;
  if (!parse_double_in(s, 0, 1e6, &v) || !(v > 0)) {
    fprintf(stderr, "%s: bad value '%s' for -d (seconds > 0)\n", bench_name, s);
    usage();
  }
  return v;
}

void bench_parse(int argc, char **argv, const char *name,
                 const char *extra_opts, const char *extra_usage,
                 int (*extra)(int opt, const char *arg)) {
  bench_name = name;
  bench_extra_usage = extra_usage ? extra_usage : "";
  char optstring[64];
  snprintf(optstring, sizeof optstring, ":t:d:n:k:u:s:h%s",
           extra_opts ? extra_opts : "");
  int c;
  opterr = 0;
  while ((c = getopt(argc, argv, optstring)) != -1) {
    switch (c) {
    case 't':
      bench.threads = bench_parse_long("-t", optarg, 1, BENCH_MAX_THREADS);
      break;
    case 'd':
      bench.duration = parse_seconds(optarg);
      bench.ops = 0;
      break;
    case 'n':
      bench.ops = bench_parse_long("-n", optarg, 1, 1L << 40);
      break;
    case 'k':
      bench.key_range = bench_parse_long("-k", optarg, 2, 1L << 40);
      break;
    case 'u':
      bench.update = bench_parse_long("-u", optarg, 0, 100);
      break;
    case 's':
      bench.seed = (unsigned long)bench_parse_long("-s", optarg, 0, 1L << 62);
      break;
    case 'h':
      usage();
      break;
    case ':':
      fprintf(stderr, "%s: option -%c needs a value\n", name, optopt);
      usage();
      break;
    case '?':
      fprintf(stderr, "%s: unknown option -%c\n", name, optopt);
      usage();
      break;
    default:
      if (!extra || !extra(c, optarg))
        usage();
    }
  }
  if (optind < argc) {
    fprintf(stderr, "%s: unexpected argument '%s'\n", name, argv[optind]);
    usage();
  }
}

static uint64_t seed_for(long id) {
  uint64_t x = (bench.seed + 1) * 0x9E3779B97F4A7C15ULL + (uint64_t)id * 7919;
  x ^= x >> 31;
  return x ? x : 1;
}

bench_thread_t bench_setup_thread(void) {
  bench_thread_t t = {.id = -1, .rng = seed_for(-1)};
  return t;
}

long bench_fill(int (*insert)(long key)) {
  bench_thread_t setup = bench_setup_thread();
  long initial = 0;
  while (initial < bench.key_range / 2)
    initial += insert(bench_rand_below(&setup, bench.key_range));
  return initial;
}

#if !defined(PTM_PMDK)
void *bench_root(const char *name, size_t size) {
  void *root = ptm_root(size);
  if (!root) {
    fprintf(stderr, "%s: no root object\n", name);
    exit(1);
  }
  return root;
}
#endif

static void (*bench_worker)(bench_thread_t *);
static pthread_barrier_t start_barrier;

static void *thread_main(void *arg) {
  bench_thread_t *t = arg;
  pthread_barrier_wait(&start_barrier);
  bench_worker(t);
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double bench_run(void (*worker)(bench_thread_t *)) {
  long n = bench.threads;
  threads = calloc((size_t)n, sizeof *threads);
  pthread_t *tid = calloc((size_t)n, sizeof *tid);
  if (!threads || !tid) {
    fprintf(stderr, "%s: out of memory\n", bench_name);
    exit(1);
  }
  bench_worker = worker;
  pthread_barrier_init(&start_barrier, NULL, (unsigned)n + 1);
  for (long i = 0; i < n; i++) {
    threads[i].id = i;
    threads[i].rng = seed_for(i);
    if (pthread_create(&tid[i], NULL, thread_main, &threads[i]) != 0) {
      fprintf(stderr, "%s: cannot create thread %ld\n", bench_name, i);
      exit(1);
    }
  }
  ptm_stats(&stats_before);
  double t0 = now();
  pthread_barrier_wait(&start_barrier);
  if (bench.ops == 0) {
    struct timespec d = {
        .tv_sec = (time_t)bench.duration,
        .tv_nsec =
            (long)((bench.duration - (double)(time_t)bench.duration) * 1e9)};
    while (nanosleep(&d, &d) != 0 && errno == EINTR)
      ;
    atomic_store(&bench_stop_flag, 1);
  }
  for (long i = 0; i < n; i++)
    pthread_join(tid[i], NULL);
  elapsed = now() - t0;
  pthread_barrier_destroy(&start_barrier);
  free(tid);
  return elapsed;
}

long bench_sum(int i) {
  long s = 0;
  for (long t = 0; t < bench.threads; t++)
    s += i < 0 ? threads[t].ops : threads[t].count[i];
  return s;
}

int bench_finish(const char *name, int ok) {
  ptm_stats_t after;
  ptm_stats(&after);
  unsigned long long commits = after.commits - stats_before.commits;
  unsigned long long aborts = after.aborts - stats_before.aborts;
  long ops = bench_sum(-1);
  char clwb[32] = "na", sfence[32] = "na";
#if !defined(PTM_PMDK) /* libpmemobj does not count its flushes */
  double txs = commits ? (double)commits : 1.0;
  snprintf(clwb, sizeof clwb, "%.2f",
           (double)(after.clwb - stats_before.clwb) / txs);
  snprintf(sfence, sizeof sfence, "%.2f",
           (double)(after.sfence - stats_before.sfence) / txs);
#endif
  /* Syncs of the pool file in the measured run (the file persistence
   * domain; the peers' shims have none): commits / syncs above 1 is group
   * commit at work. */
  unsigned long long syncs = 0;
#if !defined(PTM_BASELINE) && !defined(PTM_GCCTM) && !defined(PTM_PMDK)
  syncs = after.syncs - stats_before.syncs;
#endif
  printf("RESULT bench=%s lib=%s threads=%ld ops_per_s=%.0f commits=%llu "
         "aborts=%llu clwb_per_tx=%s sfence_per_tx=%s ops=%ld secs=%.3f "
         "syncs=%llu\n",
         name, ptm_algorithm(), bench.threads,
         elapsed > 0 ? (double)ops / elapsed : 0.0, commits, aborts, clwb,
         sfence, ops, elapsed, syncs);
  return bench_verdict(name, ok);
}
