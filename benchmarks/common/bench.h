/*
 * bench.h - what every ptm benchmark shares: option parsing, thread launch,
 * timing, per-thread counters, a fast per-thread random generator and the
 * RESULT line of the benchmark contract (DESIGN.md, "Build tree contract").
 *
 * A benchmark sets its defaults in `bench`, calls bench_parse(), builds its
 * structure, calls bench_run() with a worker that loops while
 * bench_continue(), validates, and ends with bench_finish().
 *
 * Built with -DPTM_BASELINE, the ptm.h API comes from baseline_ptm.h: one
 * global mutex, no instrumentation, no persistence. Built by gcc with
 * -fgnu-tm -DPTM_GCCTM, from gcctm_ptm.h: GCC's transactional memory.
 * Built with -DPTM_PMDK (the PMDK peers, benchmarks/peers/), from
 * pmdk_ptm.h: libpmemobj.
 */
#ifndef PTM_BENCH_H
#define PTM_BENCH_H

#if defined(PTM_BASELINE)
#include "baseline_ptm.h"
#elif defined(PTM_GCCTM)
#include "gcctm_ptm.h"
#elif defined(PTM_PMDK)
#include "pmdk_ptm.h"
#else
#include <ptm.h>
#endif

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Marks functions defined in another file and called inside transactions:
 * gcc -fgnu-tm needs them declared transaction_safe; the plugin (which
 * follows calls across files under LTO) and the baseline need nothing. */
#if defined(PTM_GCCTM)
#define BENCH_TX_SAFE __attribute__((transaction_safe))
#else
#define BENCH_TX_SAFE
#endif

#define BENCH_MAX_THREADS 1024
#define BENCH_COUNTERS 4

/* Options common to every benchmark. Benchmarks set their defaults before
 * bench_parse(). */
typedef struct bench_opts {
  long threads;       /* -t */
  double duration;    /* -d seconds (time-bounded mode, the default) */
  long ops;           /* -n operations per thread (0: time-bounded mode) */
  long key_range;     /* -k */
  long update;        /* -u percent of operations that update */
  unsigned long seed; /* -s */
} bench_opts_t;

extern bench_opts_t bench;

/* One worker thread's state. count[] holds benchmark-specific tallies (e.g.
 * successful inserts and removes) summed by bench_sum(). */
typedef struct bench_thread {
  long id;
  uint64_t rng;
  long ops;
  long count[BENCH_COUNTERS];
} bench_thread_t;

/* Parses argv. EXTRA_OPTS are getopt letters of the benchmark's own options
 * (e.g. "a:w:p"), handled by EXTRA(letter, optarg), which returns 0 to
 * reject; EXTRA_USAGE describes them. Bad options: usage on stderr, exit 2. */
void bench_parse(int argc, char **argv, const char *name,
                 const char *extra_opts, const char *extra_usage,
                 int (*extra)(int opt, const char *arg));

/* An integer option value in [min, max]; otherwise usage and exit 2. */
long bench_parse_long(const char *opt, const char *s, long min, long max);

/* Runs WORKER on bench.threads threads, started together; returns the
 * elapsed seconds of the measured phase. Statistics of transactions before
 * the call (the initial fill) are excluded from the RESULT line. */
double bench_run(void (*worker)(bench_thread_t *));

extern atomic_int bench_stop_flag;

/* Whether the worker runs another operation. */
static inline int bench_continue(const bench_thread_t *t) {
  if (bench.ops > 0)
    return t->ops < bench.ops;
  return !atomic_load_explicit(&bench_stop_flag, memory_order_relaxed);
}

/* xorshift64* */
static inline uint64_t bench_rand(bench_thread_t *t) {
  uint64_t x = t->rng;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  t->rng = x;
  return x * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, n). */
static inline long bench_rand_below(bench_thread_t *t, long n) {
  return (long)((bench_rand(t) >> 11) % (uint64_t)n);
}

/* A generator for the single-threaded setup phase. */
bench_thread_t bench_setup_thread(void);

/* The initial fill of a set: INSERT(key) on keys drawn by the setup
 * generator until it has succeeded on half the key range; returns the
 * number of keys inserted. */
long bench_fill(int (*insert)(long key));

#if !defined(PTM_PMDK)
/* The benchmark's root object (ptm_root), or exit 1 with a message. */
void *bench_root(const char *name, size_t size);
#endif

/* Sum of counter I (or of ops with I == -1) over the threads of bench_run. */
long bench_sum(int i);

/* Prints the RESULT line (and "NAME: OK" or the failure), returns the exit
 * status: 0 if OK, 1 otherwise. */
int bench_finish(const char *name, int ok);

#endif /* PTM_BENCH_H */
