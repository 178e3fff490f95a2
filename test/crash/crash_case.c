/*
 * crash_case.c - one simulated crash in forked children (see crash_case.h).
 */
#define _GNU_SOURCE
#include "crash_case.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <ptm.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

/* The simulator's exit status (runtime/crash_sim/simulator.h). */
#define CRASHED 86
/* Defined by the crash-simulator variant of the library. */
uint64_t ptm_crash_sim_events(void);
int ptm_crash_sim_heap(uint64_t *blocks, char *why, size_t n);

/* What children report back (a shared anonymous mapping, made by the
 * driver before its first fork). */
struct shared {
  uint64_t events; /* persistence events of a finished run */
  /* Buffered durability: synced[t] is 1 + the commit position of thread
   * t's last operation acknowledged before its last ptm_sync returned (every
   * position below it is durable), 0 before its first. */
  uint64_t synced[CASE_MAX_THREADS];
  /* position[i]: 1 + the commit position operation i's transaction
   * returned, stored by its thread once it returned (the operation is then
   * acknowledged); 0 while it has not returned. */
  uint64_t position[];
};

static struct shared *shared_page_of(uint64_t ops) {
  static struct shared *s;
  if (!s) {
    size_t size = sizeof *s + ops * sizeof s->position[0];
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      perror("crash test: mmap");
      exit(2);
    }
    s = p;
  }
  return s;
}

static struct shared *shared_page(void) { return shared_page_of(0); }

static void path_in(const struct case_env *e, const char *name, char *buf,
                    size_t n) {
  snprintf(buf, n, "%s/%s", e->dir, name);
}

/* Sparse copy of SRC to DST; 0 or -1 (message printed). */
static int copy_file(const char *src, const char *dst) {
  int in = open(src, O_RDONLY | O_CLOEXEC);
  int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (in < 0 || out < 0) {
    fprintf(stderr, "crash test: cannot copy %s to %s: %s\n", src, dst,
            strerror(errno));
    if (in >= 0)
      close(in);
    if (out >= 0)
      close(out);
    return -1;
  }
  static char buf[1 << 16];
  static const char zero[1 << 16];
  off_t off = 0;
  ssize_t got;
  int rc = 0;
  while ((got = read(in, buf, sizeof buf)) > 0) {
    if (memcmp(buf, zero, (size_t)got) != 0 &&
        pwrite(out, buf, (size_t)got, off) != got)
      rc = -1;
    off += got;
  }
  if (got < 0 || ftruncate(out, off) != 0)
    rc = -1;
  if (rc)
    fprintf(stderr, "crash test: cannot copy %s to %s: %s\n", src, dst,
            strerror(errno));
  close(in);
  close(out);
  return rc;
}

static void clear_crash_env(void) {
  static const char *vars[] = {
      "PTM_CRASH_AT",     "PTM_CRASH_MODE",  "PTM_CRASH_SEED",
      "PTM_CRASH_IMAGE",  "PTM_CRASH_COUNT", "PTM_CRASH_MUTATE",
      "PTM_CRASH_EVENTS", "PTM_POOL",        "PTM_DURABILITY"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
    unsetenv(vars[i]);
}

static void set_crash_env(const struct case_env *e, uint64_t at,
                          const char *mode, uint64_t seed, const char *image) {
  char num[32];
  clear_crash_env();
  if (at) {
    snprintf(num, sizeof num, "%llu", (unsigned long long)at);
    setenv("PTM_CRASH_AT", num, 1);
    setenv("PTM_CRASH_MODE", mode, 1);
    snprintf(num, sizeof num, "%llu", (unsigned long long)seed);
    setenv("PTM_CRASH_SEED", num, 1);
    setenv("PTM_CRASH_IMAGE", image, 1);
  }
  if (e->mutate)
    setenv("PTM_CRASH_MUTATE", e->mutate, 1);
  if (e->syncs_only)
    setenv("PTM_CRASH_EVENTS", "sync", 1);
}

/* Runs FN(E, ARG) in a child whose stderr goes to LOG; its exit status, or
 * 128 + signal. */
static int in_child(void (*fn)(const struct case_env *, const void *),
                    const struct case_env *e, const void *arg,
                    const char *log) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    perror("crash test: fork");
    return -1;
  }
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      dup2(fd, 2);
      close(fd);
    }
    alarm(120); /* a hang (e.g. a cycle in damaged data) is a failure */
    fn(e, arg);
    _exit(0);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

/* ---- children ---- */

struct run_arg {
  const char *pool;
  uint64_t at;
  const char *mode;
  uint64_t seed;
  const char *image;
};

struct worker {
  const struct case_env *e;
  void *root;
  unsigned t;
  pthread_barrier_t *start;
};

/* Thread W->t: operations t, t + threads, ...; records each one's commit
 * position once its transaction returned. */
static void *run_worker(void *p) {
  const struct worker *w = p;
  const struct case_env *e = w->e;
  struct shared *s = shared_page();
  if (w->start)
    pthread_barrier_wait(w->start);
  uint64_t mine = 0;
  for (uint64_t i = w->t; i < e->ops; i += e->threads) {
    uint64_t position = e->w->op(w->root, i, e->op_seed);
    __atomic_store_n(&s->position[i], position + 1, __ATOMIC_RELEASE);
    if (e->buffered && e->sync_every && ++mine % e->sync_every == 0) {
      if (ptm_sync() != 0)
        _exit(3);
      __atomic_store_n(&s->synced[w->t], position + 1, __ATOMIC_RELEASE);
    }
  }
  return NULL;
}

static void child_run(const struct case_env *e, const void *p) {
  const struct run_arg *a = p;
  set_crash_env(e, a->at, a->mode, a->seed, a->image);
  /* (an interval no run reaches: the file is written at ptm_sync, at the
   * queue budget and at ptm_close, so a serial run's events stay
   * deterministic) */
  if (e->buffered)
    setenv("PTM_DURABILITY", "buffered:60000", 1);
  struct shared *s = shared_page();
  memset(s->position, 0, e->ops * sizeof s->position[0]);
  memset(s->synced, 0, sizeof s->synced);
  if (ptm_open(a->pool, 0) != 0)
    _exit(3);
  void *root = ptm_root(0);
  if (!root)
    _exit(3);
  if (e->w->set_run)
    e->w->set_run(e->ops, e->threads);
  if (e->threads <= 1) {
    /* in this thread: the events of a serial run are deterministic */
    struct worker w = {e, root, 0, NULL};
    run_worker(&w);
  } else {
    pthread_t tid[CASE_MAX_THREADS];
    struct worker w[CASE_MAX_THREADS];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, e->threads);
    for (unsigned t = 0; t < e->threads; t++) {
      w[t] = (struct worker){e, root, t, &start};
      if (pthread_create(&tid[t], NULL, run_worker, &w[t]) != 0) {
        fprintf(stderr, "crash test: cannot start thread %u\n", t);
        _exit(3);
      }
    }
    for (unsigned t = 0; t < e->threads; t++)
      pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&start);
  }
  s->events = ptm_crash_sim_events();
  ptm_close();
}

static void child_recover(const struct case_env *e, const void *p) {
  const struct run_arg *a = p;
  set_crash_env(e, a->at, a->mode, a->seed, a->image);
  int rc = ptm_open(a->pool, 0);
  shared_page()->events = ptm_crash_sim_events();
  _exit(rc == 0 ? 0 : 2);
}

/* The commit-order check. ORDER[0..DONE-1] holds the acknowledged
 * operations at the positions they returned and UINT64_MAX in HOLES[0..NH-1];
 * a hole is the position of an operation that committed but had not
 * returned: one of the in-flight operations CAND[0..NC-1] (at most one per
 * thread; CAND_AFTER[c] is the last position its thread returned, +1, or
 * 0), placed after its thread's acknowledged ones. Tries every placement;
 * 0 as soon as the workload's check accepts one, else 1 with the first
 * placement's failure in WHY. */
struct order_search {
  const struct case_env *e;
  const uint64_t *root;
  uint64_t *order, done;
  const uint64_t *holes;
  uint64_t nh;
  const uint64_t *cand, *cand_after;
  uint64_t nc;
  int used[CASE_MAX_THREADS];
  int tried;
  char *why;
  size_t n;
};

static int place_holes(struct order_search *s, uint64_t h) {
  if (h == s->nh) {
    char why[512];
    if (s->e->w->check(s->root, s->order, s->done, s->e->op_seed, why,
                       sizeof why) == 0)
      return 0;
    if (!s->tried++)
      snprintf(s->why, s->n, "%s", why);
    /* check.log: every placement tried, with the commit order it gives */
    fprintf(stderr, "  commit order tried (%s):", why);
    for (uint64_t k = 0; k < s->done; k++)
      fprintf(stderr, " %llu", (unsigned long long)s->order[k]);
    fprintf(stderr, "\n");
    return 1;
  }
  for (uint64_t c = 0; c < s->nc; c++) {
    if (s->used[c] || s->holes[h] < s->cand_after[c])
      continue;
    s->used[c] = 1;
    s->order[s->holes[h]] = s->cand[c];
    int rc = place_holes(s, h + 1);
    s->used[c] = 0;
    if (rc == 0)
      return 0;
  }
  s->order[s->holes[h]] = UINT64_MAX;
  return 1;
}

/* 0 if the recovered ROOT (DONE operations) is the state after a prefix of
 * the commit order that holds every acknowledged operation (buffered: every
 * one acknowledged before a ptm_sync returned); else 1 with the reason in
 * WHY. */
static int check_commit_order(const struct case_env *e, const uint64_t *root,
                              uint64_t done, char *why, size_t n) {
  const uint64_t *position = shared_page()->position;
  /* the positions that must be in the pool: every acknowledged one, or
   * under buffered durability those below the largest synced mark */
  uint64_t durable = UINT64_MAX;
  if (e->buffered && !e->check_acked) {
    durable = 0;
    for (unsigned t = 0; t < e->threads; t++)
      if (shared_page()->synced[t] > durable)
        durable = shared_page()->synced[t];
  }
  if (done > e->ops) {
    snprintf(why, n,
             "durability: the pool holds %llu operations, the run has "
             "%llu",
             (unsigned long long)done, (unsigned long long)e->ops);
    return 1;
  }
  uint64_t *order = malloc((done + 1) * sizeof *order);
  uint64_t *holes = malloc((done + 1) * sizeof *holes);
  if (!order || !holes) {
    snprintf(why, n, "crash test: no memory");
    return 1;
  }
  for (uint64_t k = 0; k < done; k++)
    order[k] = UINT64_MAX;
  uint64_t cand[CASE_MAX_THREADS], cand_after[CASE_MAX_THREADS], nc = 0;
  uint64_t acked = 0;
  int rc = 0;
  for (unsigned t = 0; t < e->threads && !rc; t++) {
    uint64_t after = 0;
    uint64_t i = t;
    for (; i < e->ops && position[i]; i += e->threads) {
      uint64_t k = position[i] - 1;
      acked++;
      if (k >= done && k < durable) {
        snprintf(why, n,
                 "durability: operation %llu (thread %u) returned at commit "
                 "position %llu%s, the pool holds %llu operations",
                 (unsigned long long)i, t, (unsigned long long)k,
                 durable != UINT64_MAX ? " before a ptm_sync that returned"
                                       : "",
                 (unsigned long long)done);
        rc = 1;
        break;
      }
      if (k < done && order[k] != UINT64_MAX) {
        snprintf(why, n,
                 "operations %llu and %llu both returned commit position "
                 "%llu (the transactions were not serialized)",
                 (unsigned long long)order[k], (unsigned long long)i,
                 (unsigned long long)k);
        rc = 1;
        break;
      }
      if (k + 1 <= after) {
        snprintf(why, n,
                 "operation %llu (thread %u) returned commit position %llu, "
                 "before that of the thread's previous operation (%llu)",
                 (unsigned long long)i, t, (unsigned long long)k,
                 (unsigned long long)(after - 1));
        rc = 1;
        break;
      }
      if (k < done) /* (buffered: a later one may be lost) */
        order[k] = i;
      after = k + 1;
    }
    if (!rc && i < e->ops) { /* its next operation: in flight */
      cand[nc] = i;
      cand_after[nc++] = after;
    }
  }
  uint64_t nh = 0;
  for (uint64_t k = 0; k < done && !rc; k++)
    if (order[k] == UINT64_MAX)
      holes[nh++] = k;
  if (!rc && nh > nc) {
    snprintf(why, n,
             "durability: the pool holds %llu operations, %llu were "
             "acknowledged before the crash and %llu more were in flight",
             (unsigned long long)done, (unsigned long long)acked,
             (unsigned long long)nc);
    rc = 1;
  }
  if (!rc) {
    struct order_search s = {e,          root, order, done, holes, nh, cand,
                             cand_after, nc,   {0},   0,    why,   n};
    rc = place_holes(&s, 0);
    if (rc && !s.tried)
      snprintf(why, n,
               "durability: no in-flight operation can take commit "
               "position(s) %llu.. of the %llu the pool holds (each thread's "
               "operations commit in its program order)",
               (unsigned long long)holes[0], (unsigned long long)done);
  }
  free(order);
  free(holes);
  return rc;
}

struct check_arg {
  const char *pool;
};

static void child_check(const struct case_env *e, const void *p) {
  const struct check_arg *a = p;
  clear_crash_env();
  if (ptm_open(a->pool, 0) != 0) {
    fprintf(stderr, "recovery failed: ptm_open refused the crash image\n");
    _exit(2);
  }
  const uint64_t *root = ptm_root(0);
  if (!root) {
    fprintf(stderr, "the recovered pool has no root object\n");
    _exit(1);
  }
  char why[1024];
  if (check_commit_order(e, root, root[0], why, sizeof why)) {
    fprintf(stderr, "%s\n", why);
    _exit(1);
  }
  long expected = e->w->expected_blocks(root);
  uint64_t blocks = 0;
  if (ptm_crash_sim_heap(&blocks, why, sizeof why) != 0) {
    fprintf(stderr, "%s\n", why);
    _exit(1);
  }
  if (expected >= 0 && blocks != (uint64_t)expected) {
    fprintf(stderr,
            "heap: %llu blocks allocated, the recovered data reaches %ld (a "
            "leak or a lost block)\n",
            (unsigned long long)blocks, expected);
    _exit(1);
  }
  ptm_close();
}

/* Runs the pool tool (CMD: check) on POOL with stdout to
 * LOG; its exit status. */
static int run_tool(const struct case_env *e, const char *cmd, const char *pool,
                    const char *log) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execl(e->pool_tool, e->pool_tool, cmd, pool, (char *)NULL);
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void first_line(const char *log, char *buf, size_t n) {
  buf[0] = '\0';
  FILE *f = fopen(log, "r");
  if (!f)
    return;
  char line[512];
  /* the first line that is not the simulator's own report nor an indented
   * detail (the commit orders a check tried) */
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "ptm: crash-sim:", 15) != 0 && line[0] != ' ') {
      line[strcspn(line, "\n")] = '\0';
      snprintf(buf, n, "%s", line);
      break;
    }
  fclose(f);
}

/* ---- public ---- */

static void child_init(const struct case_env *e, const void *p) {
  clear_crash_env();
  const char *pool = p;
  if (!e->pool_tool && ptm_open(pool, 32u << 20) != 0)
    _exit(3);
  if (e->pool_tool && ptm_open(pool, 0) != 0)
    _exit(3);
  void *root = ptm_root(e->w->root_size);
  if (!root)
    _exit(3);
  e->w->init(root, e->op_seed);
  ptm_close();
}

int make_base_pool(const struct case_env *e, char *path, size_t n) {
  char log[4096], slots[16], slot_size[24];
  shared_page_of(e->ops); /* before the first fork */
  path_in(e, "base.pool", path, n);
  /* a thread slot per thread and the persister's (buffered, or sp3, which
   * runs it under strict durability too): one, or in the file domain, where
   * the lazy libraries' strict commits go through it too, its ring of three
   * (runtime/pool/persister.cpp); at least the 2 of the serial tests */
  const char *domain = getenv("PTM_PERSIST_DOMAIN");
  int file = domain && !strcmp(domain, "file");
  int persister = e->buffered || !strcmp(ptm_algorithm(), "sp3") || file;
  unsigned nslots = e->threads + (persister ? (file ? 3 : 1) : 0);
  snprintf(slots, sizeof slots, "%u", nslots > 2 ? nslots : 2);
  snprintf(slot_size, sizeof slot_size, "%llu",
           (unsigned long long)(e->slot_size ? e->slot_size : 65536));
  path_in(e, "init.log", log, sizeof log);
  unlink(path);
  if (e->pool_tool) {
    pid_t pid = fork();
    if (pid == 0) {
      int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd >= 0) {
        dup2(fd, 1);
        dup2(fd, 2);
      }
      /* a small pool: the slots above, of 64 KiB (--slot-size); 4 MiB */
      execl(e->pool_tool, e->pool_tool, "create", path, "4M", "--slots", slots,
            "--slot-size", slot_size, (char *)NULL);
      _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
      fprintf(stderr, "crash test: %s create failed (see %s)\n", e->pool_tool,
              log);
      return -1;
    }
  }
  if (in_child(child_init, e, path, log) != 0) {
    fprintf(stderr, "crash test: the %s workload's init failed (see %s)\n",
            e->w->name, log);
    return -1;
  }
  return 0;
}

int64_t count_run_events(const struct case_env *e) {
  char pool[4096], log[4096];
  path_in(e, "count.pool", pool, sizeof pool);
  path_in(e, "count.log", log, sizeof log);
  if (copy_file(e->base_pool, pool) != 0)
    return -1;
  struct run_arg a = {pool, 0, "none", 0, NULL};
  shared_page()->events = 0;
  int rc = in_child(child_run, e, &a, log);
  if (rc != 0) {
    fprintf(stderr,
            "crash test: the %s workload failed without a crash "
            "(status %d, see %s)\n",
            e->w->name, rc, log);
    return -1;
  }
  return (int64_t)shared_page()->events;
}

int64_t count_recovery_events(const struct case_env *e, const char *image) {
  char pool[4096], log[4096];
  path_in(e, "count-recovery.pool", pool, sizeof pool);
  path_in(e, "count-recovery.log", log, sizeof log);
  if (copy_file(image, pool) != 0)
    return -1;
  struct run_arg a = {pool, 0, "none", 0, NULL};
  shared_page()->events = 0;
  int rc = in_child(child_recover, e, &a, log);
  if (rc != 0)
    return 0; /* the recovery fails: run_case reports it */
  return (int64_t)shared_page()->events;
}

enum case_result run_case(const struct case_env *e, const struct crash_point *p,
                          char *why, size_t n) {
  char pool[4096], image[4096], image2[4096], log[4096], rlog[4096], clog[4096],
      tlog[4096];
  path_in(e, "run.pool", pool, sizeof pool);
  path_in(e, "crash.pool", image, sizeof image);
  path_in(e, "recovery-crash.pool", image2, sizeof image2);
  path_in(e, "run.log", log, sizeof log);
  path_in(e, "recovery.log", rlog, sizeof rlog);
  path_in(e, "check.log", clog, sizeof clog);
  path_in(e, "tool.log", tlog, sizeof tlog);
  why[0] = '\0';
  if (copy_file(e->base_pool, pool) != 0)
    return CASE_HARNESS_ERROR;
  unlink(image);
  struct run_arg a = {pool, p->at, p->mode, p->seed, image};
  int rc = in_child(child_run, e, &a, log);
  if (rc == 0)
    return CASE_NOT_REACHED;
  if (rc != CRASHED) {
    first_line(log, why, n);
    snprintf(why + strlen(why), n - strlen(why),
             " (the run ended with status %d; %s)", rc, log);
    return CASE_HARNESS_ERROR;
  }
  const char *checked = image;
  if (p->recovery_at) {
    unlink(image2);
    struct run_arg r = {image, p->recovery_at, p->mode, p->seed, image2};
    rc = in_child(child_recover, e, &r, rlog);
    if (rc == 0)
      return CASE_NOT_REACHED;
    if (rc == CRASHED) {
      checked = image2;
    } else {
      first_line(rlog, why, n);
      snprintf(why + strlen(why), n - strlen(why),
               " (recovery ended with status %d; %s)", rc, rlog);
      return CASE_VIOLATION;
    }
  }
  if (p->recovery_events && !p->recovery_at)
    *p->recovery_events = count_recovery_events(e, image);
  struct check_arg c = {checked};
  rc = in_child(child_check, e, &c, clog);
  if (rc != 0) {
    first_line(clog, why, n);
    snprintf(why + strlen(why), n - strlen(why), " (check status %d; %s)", rc,
             clog);
    return CASE_VIOLATION;
  }
  if (e->pool_tool && e->w->tool_check) {
    rc = run_tool(e, "check", checked, tlog);
    if (rc < 0 || rc == 127) { /* not run: fork or exec failed */
      snprintf(why, n, "could not run %s (status %d; %s)", e->pool_tool, rc,
               tlog);
      return CASE_HARNESS_ERROR;
    }
    if (rc != 0) {
      first_line(tlog, why, n);
      snprintf(why + strlen(why), n - strlen(why),
               " (ptm-pool check status %d; %s)", rc, tlog);
      return CASE_VIOLATION;
    }
  }
  return CASE_OK;
}

void reproduce_command(const struct case_env *e, const char *argv0,
                       const struct crash_point *p, char *buf, size_t n) {
  /* (the domain the runs model, when it is not the driver's default) */
  const char *domain = getenv("PTM_PERSIST_DOMAIN");
  int other = domain && strcmp(domain, "pmem");
  int k =
      snprintf(buf, n,
               "%s%s%s%s case %s --ops %llu --op-seed %llu --at %llu "
               "--mode %s --seed %llu",
               other ? "PTM_PERSIST_DOMAIN=" : "", other ? domain : "",
               other ? " " : "", argv0, e->w->name, (unsigned long long)e->ops,
               (unsigned long long)e->op_seed, (unsigned long long)p->at,
               p->mode, (unsigned long long)p->seed);
  if (p->recovery_at && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --recovery-at %llu",
                  (unsigned long long)p->recovery_at);
  if (e->mutate && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --mutate %s", e->mutate);
  if (e->threads > 1 && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --threads %u", e->threads);
  if (e->buffered && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --buffered %llu",
                  (unsigned long long)e->sync_every);
  if (e->check_acked && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --check-acked");
  if (e->syncs_only && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --events sync");
  if (e->slot_size && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --slot-size %llu",
                  (unsigned long long)e->slot_size);
  if (e->pool_tool && k > 0 && (size_t)k < n)
    k += snprintf(buf + k, n - (size_t)k, " --pool-tool %s", e->pool_tool);
  if (k > 0 && (size_t)k < n)
    snprintf(buf + k, n - (size_t)k, " --dir %s", e->dir);
}
