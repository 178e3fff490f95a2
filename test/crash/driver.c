/*
 * driver.c - crash_test.<LIB>: the crash-simulator tests of one persistent
 * library (linked against its crash-simulator variant, libptm_LIB_crashsim).
 *
 *   crash_test.LIB count WORKLOAD [options]      persistence events of a run
 *   crash_test.LIB sweep WORKLOAD [options]      crash at many events
 *   crash_test.LIB case  WORKLOAD --at N [--mode M] [--seed S]
 *                        [--recovery-at R] [options]   one crash, verbose
 * and, in this process (no fork; the PTM_CRASH_* variables apply as set):
 *   crash_test.LIB init  WORKLOAD --pool PATH    init (a new PATH: 32 MiB)
 *   crash_test.LIB run   WORKLOAD --pool PATH    run --ops operations
 *   crash_test.LIB check WORKLOAD --pool PATH    recover, check the state is
 *                        that of the first `done` operations
 *
 * WORKLOAD: bank, list, btree, alloc, big, reuse, reuse-held (workload.h).
 * The runs are in the pmem persistence domain unless PTM_PERSIST_DOMAIN
 * names another (file: docs/crash_simulator.md). Options:
 *   --ops N           operations (transactions) of a run (default 50)
 *   --op-seed S       seed of the operations (default 1)
 *   --dir DIR         work directory (default .)
 *   --pool-tool PATH  ptm-pool: small pools, heap check and leak check
 *   --mutate SPEC     PTM_CRASH_MUTATE for the runs (drop-fence:K, drop-clwb:K,
 *                     drop-sync:K, unflushed-extension, unawaited-commit)
 *   --threads T       count, sweep, case: run the operations on T threads
 *                     (1..8, default 1; thread t runs operations t, t + T,
 *                     ...) and check the recovered state against the commit
 *                     order (docs/crash_simulator.md)
 *   --buffered K      count, sweep, case: the runs under buffered durability
 *                     (PTM_DURABILITY=buffered), each thread calling
 *                     ptm_sync after every K of its operations (0: never);
 *                     the check wants a prefix of the commit order holding
 *                     every operation acknowledged before a ptm_sync
 *   --slot-size B     count, sweep, case: the pool's slots of B bytes (a
 *                     multiple of 4096; default 65536): small slots make
 *                     the persister's rounds span several records
 *   --events all|sync count, sweep, case: number every persistence event,
 *                     or only the syncs of the pool file (the file domain:
 *                     the only events that make anything persistent, so
 *                     `--points all` over them with mode none is every
 *                     persistent state a crash can leave)
 *   --check-acked     with --buffered: check as under strict durability
 *                     (every acknowledged operation in the pool), to show
 *                     with --expect-violations that buffered runs do lose
 *                     unsynced ones
 * sweep only:
 *   --points all|K    every event of the run, or K of them (spread, seeded)
 *   --modes LIST      comma-separated from none,all,random (default all three)
 *   --seeds K         seeds of mode random per point (default 1)
 *   --recovery K      also crash inside the recovery of each image at K of
 *                     its events (all: every one; default 0)
 *   --sample-seed S   seed of the choice of points (default 1)
 *   --expect-violations   the mutation check: succeed iff a violation is
 *                     found (the sweep stops at the first)
 * A sweep prints every violation with the command that reproduces it, and a
 * last line `SUMMARY lib=.. workload=.. ...`; exit 0 if there is none.
 */
#include "crash_case.h"

#include <errno.h>
#include <ptm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

PTM_PURE void workload_out_of_memory(const char *what) {
  fprintf(stderr, "crash test: the pool's heap is full (%s)\n", what);
  abort();
}

static const struct workload *const workloads[] = {
    &bank_workload, &list_workload,  &btree_workload,     &alloc_workload,
    &big_workload,  &reuse_workload, &reuse_held_workload};

struct options {
  const char *command, *workload;
  uint64_t ops, op_seed, points, seeds, recovery, sample_seed, threads;
  uint64_t sync_every, slot_size;
  int all_points, all_recovery, expect_violations, buffered, check_acked,
      syncs_only;
  uint64_t at, seed, recovery_at;
  const char *mode, *modes, *dir, *pool_tool, *mutate, *pool;
};

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s count|sweep|case|init|run|check WORKLOAD [--pool PATH] "
          "[--ops N] [--op-seed S] "
          "[--dir DIR] [--pool-tool PATH] [--mutate SPEC] [--threads T] "
          "[--buffered K [--check-acked]] [--slot-size BYTES] "
          "[--events all|sync]\n"
          "  sweep: [--points all|K] [--modes none,all,random] [--seeds K] "
          "[--recovery all|K] [--sample-seed S] [--expect-violations]\n"
          "  case:  --at N [--mode none|all|random] [--seed S] "
          "[--recovery-at R]\n"
          "WORKLOAD: bank list btree alloc big reuse reuse-held\n",
          argv0);
  exit(2);
}

static uint64_t number(const char *argv0, const char *opt, const char *s) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || !*s || *s == '-') {
    fprintf(stderr, "%s: %s needs a non-negative integer, not '%s'\n", argv0,
            opt, s);
    exit(2);
  }
  return v;
}

static void parse(int argc, char **argv, struct options *o) {
  if (argc < 3)
    usage(argv[0]);
  o->command = argv[1];
  o->workload = argv[2];
  for (int i = 3; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--expect-violations")) {
      o->expect_violations = 1;
      continue;
    }
    if (!strcmp(a, "--check-acked")) {
      o->check_acked = 1;
      continue;
    }
    if (i + 1 >= argc)
      usage(argv[0]);
    const char *v = argv[++i];
    if (!strcmp(a, "--ops"))
      o->ops = number(argv[0], a, v);
    else if (!strcmp(a, "--op-seed"))
      o->op_seed = number(argv[0], a, v);
    else if (!strcmp(a, "--dir"))
      o->dir = v;
    else if (!strcmp(a, "--pool"))
      o->pool = v;
    else if (!strcmp(a, "--pool-tool"))
      o->pool_tool = v;
    else if (!strcmp(a, "--mutate"))
      o->mutate = v;
    else if (!strcmp(a, "--threads")) {
      o->threads = number(argv[0], a, v);
      if (o->threads < 1 || o->threads > CASE_MAX_THREADS) {
        fprintf(stderr, "%s: --threads needs 1..%d, not '%s'\n", argv[0],
                CASE_MAX_THREADS, v);
        exit(2);
      }
    } else if (!strcmp(a, "--buffered")) {
      o->buffered = 1;
      o->sync_every = number(argv[0], a, v);
    } else if (!strcmp(a, "--slot-size")) {
      o->slot_size = number(argv[0], a, v);
      if (o->slot_size < 4096 || o->slot_size % 4096 != 0) {
        fprintf(stderr, "%s: --slot-size needs a multiple of 4096, not '%s'\n",
                argv[0], v);
        exit(2);
      }
    } else if (!strcmp(a, "--events")) {
      if (strcmp(v, "all") && strcmp(v, "sync")) {
        fprintf(stderr, "%s: --events needs all or sync, not '%s'\n", argv[0],
                v);
        exit(2);
      }
      o->syncs_only = !strcmp(v, "sync");
    } else if (!strcmp(a, "--points")) {
      o->all_points = !strcmp(v, "all");
      if (!o->all_points)
        o->points = number(argv[0], a, v);
    } else if (!strcmp(a, "--modes"))
      o->modes = v;
    else if (!strcmp(a, "--seeds"))
      o->seeds = number(argv[0], a, v);
    else if (!strcmp(a, "--recovery")) {
      o->all_recovery = !strcmp(v, "all");
      if (!o->all_recovery)
        o->recovery = number(argv[0], a, v);
    } else if (!strcmp(a, "--sample-seed"))
      o->sample_seed = number(argv[0], a, v);
    else if (!strcmp(a, "--at"))
      o->at = number(argv[0], a, v);
    else if (!strcmp(a, "--mode"))
      o->mode = v;
    else if (!strcmp(a, "--seed"))
      o->seed = number(argv[0], a, v);
    else if (!strcmp(a, "--recovery-at"))
      o->recovery_at = number(argv[0], a, v);
    else {
      fprintf(stderr, "%s: unknown option '%s'\n", argv[0], a);
      usage(argv[0]);
    }
  }
}

/* mkdir -p */
static void make_dirs(const char *path) {
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *c = buf + 1; *c; c++)
    if (*c == '/') {
      *c = '\0';
      mkdir(buf, 0755);
      *c = '/';
    }
  mkdir(buf, 0755);
}

static int valid_mode(const char *m) {
  return !strcmp(m, "none") || !strcmp(m, "all") || !strcmp(m, "random");
}

/* The I-th of K points spread over 1..TOTAL (seeded jitter). */
static uint64_t spread(uint64_t i, uint64_t k, uint64_t total, uint64_t seed) {
  if (k >= total)
    return i + 1;
  uint64_t lo = i * total / k, hi = (i + 1) * total / k;
  return lo + 1 + op_rand(seed, i, 77) % (hi - lo);
}

/* strict, or buffered:K (ptm_sync every K operations of a thread) */
static const char *durability_name(const struct case_env *e) {
  static char buf[48];
  if (!e->buffered)
    return "strict";
  snprintf(buf, sizeof buf, "buffered:%llu%s",
           (unsigned long long)e->sync_every,
           e->check_acked ? ",checked-as-strict" : "");
  return buf;
}

struct tally {
  uint64_t points, cases, images, recovered, violations, recovery_crashes,
      not_reached, errors;
};

/* Runs case P; prints a violation with its reproduction command. */
static void one_case(const struct case_env *e, const char *argv0,
                     const struct crash_point *p, struct tally *t) {
  char why[1024], cmd[2048];
  t->cases++;
  enum case_result r = run_case(e, p, why, sizeof why);
  switch (r) {
  case CASE_OK:
    t->images++;
    t->recovered++;
    t->recovery_crashes += p->recovery_at != 0;
    break;
  case CASE_NOT_REACHED:
    t->not_reached++;
    break;
  case CASE_VIOLATION:
    t->images++;
    t->violations++;
    reproduce_command(e, argv0, p, cmd, sizeof cmd);
    printf("VIOLATION lib=%s workload=%s at=%llu mode=%s seed=%llu "
           "recovery_at=%llu: %s\n  reproduce: %s\n",
           e->lib, e->w->name, (unsigned long long)p->at, p->mode,
           (unsigned long long)p->seed, (unsigned long long)p->recovery_at, why,
           cmd);
    fflush(stdout);
    break;
  case CASE_HARNESS_ERROR:
    t->errors++;
    printf("ERROR lib=%s workload=%s at=%llu mode=%s: %s\n", e->lib, e->w->name,
           (unsigned long long)p->at, p->mode, why);
    fflush(stdout);
    break;
  }
}

static int sweep(const struct case_env *e, const struct options *o,
                 const char *argv0, int64_t events) {
  struct tally t = {0};
  char modes[256];
  snprintf(modes, sizeof modes, "%s", o->modes);
  const char *mode_list[3];
  int nmodes = 0;
  for (char *m = strtok(modes, ","); m && nmodes < 3; m = strtok(NULL, ","))
    if (valid_mode(m))
      mode_list[nmodes++] = m;
    else {
      fprintf(stderr, "%s: unknown mode '%s' (none, all, random)\n", argv0, m);
      return 2;
    }
  uint64_t npoints = o->all_points || o->points > (uint64_t)events
                         ? (uint64_t)events
                         : o->points;
  int stop = 0;
  for (uint64_t i = 0; i < npoints && !stop; i++) {
    uint64_t at = spread(i, npoints, (uint64_t)events, o->sample_seed);
    t.points++;
    for (int m = 0; m < nmodes && !stop; m++) {
      uint64_t nseeds = strcmp(mode_list[m], "random") ? 1 : o->seeds;
      for (uint64_t s = 1; s <= nseeds && !stop; s++) {
        int64_t rec_events = 0;
        struct crash_point p = {at, mode_list[m], s, 0, NULL};
        int want_recovery = o->all_recovery || o->recovery > 0;
        if (want_recovery)
          p.recovery_events = &rec_events;
        one_case(e, argv0, &p, &t);
        stop = o->expect_violations && t.violations > 0;
        if (!want_recovery || rec_events <= 0 || stop)
          continue;
        uint64_t k = o->all_recovery || o->recovery > (uint64_t)rec_events
                         ? (uint64_t)rec_events
                         : o->recovery;
        for (uint64_t j = 0; j < k && !stop; j++) {
          struct crash_point q = {
              at, mode_list[m], s,
              spread(j, k, (uint64_t)rec_events, o->sample_seed + at), NULL};
          one_case(e, argv0, &q, &t);
          stop = o->expect_violations && t.violations > 0;
        }
      }
    }
  }
  printf("SUMMARY lib=%s workload=%s threads=%u ops=%llu events=%lld "
         "points=%llu cases=%llu images=%llu recovered=%llu violations=%llu "
         "recovery_crashes=%llu not_reached=%llu errors=%llu mutate=%s "
         "durability=%s numbered=%s\n",
         e->lib, e->w->name, e->threads, (unsigned long long)e->ops,
         (long long)events, (unsigned long long)t.points,
         (unsigned long long)t.cases, (unsigned long long)t.images,
         (unsigned long long)t.recovered, (unsigned long long)t.violations,
         (unsigned long long)t.recovery_crashes,
         (unsigned long long)t.not_reached, (unsigned long long)t.errors,
         e->mutate ? e->mutate : "none", durability_name(e),
         e->syncs_only ? "sync" : "all");
  if (t.errors)
    return 1;
  if (o->expect_violations) {
    if (!t.violations)
      printf("FAIL: the mutation %s was not caught by any crash point\n",
             e->mutate ? e->mutate : "(none)");
    return t.violations ? 0 : 1;
  }
  return t.violations ? 1 : 0;
}

/* init, run and check in this process. */
static int direct(const struct workload *w, const struct options *o) {
  if (!o->pool) {
    fprintf(stderr, "%s needs --pool PATH\n", o->command);
    return 2;
  }
  if (o->threads > 1 || o->buffered) {
    /* check needs the commit order, which only count/sweep/case record */
    fprintf(stderr,
            "%s runs in one thread, strict: --threads and --buffered are "
            "for count, sweep and case\n",
            o->command);
    return 2;
  }
  int init = !strcmp(o->command, "init");
  struct stat st;
  int exists = stat(o->pool, &st) == 0;
  if (ptm_open(o->pool, init && !exists ? 32u << 20 : 0) != 0)
    return 1;
  void *root = ptm_root(init ? w->root_size : 0);
  if (!root)
    return 1;
  if (init) {
    w->init(root, o->op_seed);
  } else if (!strcmp(o->command, "run")) {
    if (w->set_run)
      w->set_run(o->ops, 1);
    for (uint64_t i = 0; i < o->ops; i++)
      w->op(root, i, o->op_seed);
  } else {
    char why[512];
    uint64_t done = *(const uint64_t *)root;
    uint64_t *order = malloc((done + 1) * sizeof *order);
    if (!order)
      return 1;
    for (uint64_t k = 0; k < done; k++)
      order[k] = k; /* a serial run */
    int bad = w->check(root, order, done, o->op_seed, why, sizeof why);
    free(order);
    if (bad) {
      printf("VIOLATION after %llu operations: %s\n", (unsigned long long)done,
             why);
      return 1;
    }
    printf("ok: the state of the first %llu operations\n",
           (unsigned long long)done);
  }
  ptm_close();
  return 0;
}

int main(int argc, char **argv) {
  struct options o = {0};
  o.ops = 50;
  o.op_seed = 1;
  o.seeds = 1;
  o.sample_seed = 1;
  o.threads = 1;
  o.all_points = 1;
  o.mode = "none";
  o.modes = "none,all,random";
  o.dir = ".";
  parse(argc, argv, &o);
  /* The persistence domain the runs model: persistent memory (flushes and
   * fences), unless PTM_PERSIST_DOMAIN names another. Left to the runtime,
   * a pool file on a disk would be the file domain (its syncs, and the
   * persister under strict durability: the crash-*-file tests choose it),
   * on tmpfs the page cache: what a sweep covers would depend on where its
   * work directory is. */
  setenv("PTM_PERSIST_DOMAIN", "pmem", 0);
  const struct workload *w = NULL;
  for (size_t i = 0; i < sizeof workloads / sizeof *workloads; i++)
    if (!strcmp(workloads[i]->name, o.workload))
      w = workloads[i];
  if (!w) {
    fprintf(stderr,
            "%s: unknown workload '%s' (bank, list, btree, alloc, big, "
            "reuse, reuse-held)\n",
            argv[0], o.workload);
    return 2;
  }
  if (!valid_mode(o.mode)) {
    fprintf(stderr, "%s: unknown mode '%s' (none, all, random)\n", argv[0],
            o.mode);
    return 2;
  }
  if (!strcmp(o.command, "init") || !strcmp(o.command, "run") ||
      !strcmp(o.command, "check"))
    return direct(w, &o);
  make_dirs(o.dir);
  char base[4096];
  struct case_env e = {w,           ptm_algorithm(), o.dir,
                       base,        o.pool_tool,     o.ops,
                       o.op_seed,   o.mutate,        (unsigned)o.threads,
                       o.buffered,  o.sync_every,    o.check_acked,
                       o.slot_size, o.syncs_only};
  if (o.check_acked && !o.buffered) {
    fprintf(stderr, "%s: --check-acked needs --buffered\n", argv[0]);
    return 2;
  }
  if (make_base_pool(&e, base, sizeof base) != 0)
    return 1;
  int64_t events = count_run_events(&e);
  if (events < 0)
    return 1;
  if (!strcmp(o.command, "count")) {
    printf("lib=%s workload=%s threads=%u ops=%llu events=%lld "
           "durability=%s numbered=%s\n",
           e.lib, w->name, e.threads, (unsigned long long)o.ops,
           (long long)events, durability_name(&e),
           e.syncs_only ? "sync" : "all");
    return 0;
  }
  if (!strcmp(o.command, "sweep"))
    return sweep(&e, &o, argv[0], events);
  if (strcmp(o.command, "case") != 0)
    usage(argv[0]);
  if (o.at == 0) {
    fprintf(stderr, "%s: case needs --at N (1..%lld)\n", argv[0],
            (long long)events);
    return 2;
  }
  struct crash_point p = {o.at, o.mode, o.seed, o.recovery_at, NULL};
  char why[1024];
  enum case_result r = run_case(&e, &p, why, sizeof why);
  static const char *names[] = {"recovered, invariants hold",
                                "not reached (the run has fewer events)",
                                "VIOLATION", "ERROR"};
  printf("lib=%s workload=%s threads=%u at=%llu (of %lld) mode=%s seed=%llu "
         "recovery_at=%llu: %s%s%s\n",
         e.lib, w->name, e.threads, (unsigned long long)o.at, (long long)events,
         o.mode, (unsigned long long)o.seed, (unsigned long long)o.recovery_at,
         names[r], why[0] ? ": " : "", why);
  printf("logs and pools: %s (run.log, recovery.log, check.log, tool.log)\n",
         o.dir);
  return r == CASE_OK || r == CASE_NOT_REACHED ? 0 : 1;
}
