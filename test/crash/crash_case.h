/*
 * crash_case.h - one simulated crash, end to end, in forked children:
 *   copy the base pool, run the workload on the copy with PTM_CRASH_AT=N
 *   (the simulator writes the crash image and ends the child), optionally
 *   crash again inside the recovery of that image (PTM_CRASH_AT=M), then
 *   recover it in a fresh child and check the workload's invariants and
 *   durability (acknowledged operations present), and the heap with
 *   (its check, and its block count against the reachable blocks: no leak),
 *   plus `ptm-pool check` for workloads that ask for it.
 *
 * With THREADS > 1 the run's operations are dealt round robin to that many
 * threads (thread t runs operations t, t + THREADS, ...). Each thread
 * records, in memory shared with the driver, the commit position each of
 * its operations returned (the value of root->done its transaction read);
 * the check accepts the recovered state iff it is the state after a prefix
 * of the commit order that holds every acknowledged operation, the holes in
 * that prefix being operations that were in flight (docs/crash_simulator.md).
 *
 * Buffered durability (BUFFERED): the run has PTM_DURABILITY=buffered (with
 * an interval no run reaches, so only ptm_sync, the queue budget and
 * ptm_close write the file) and each thread calls ptm_sync after every
 * SYNC_EVERY of its operations (0: never). The check then wants a prefix of
 * the commit order that holds every operation acknowledged before a
 * ptm_sync that returned: later ones may be lost, never half applied.
 */
#ifndef PTM_TEST_CRASH_CASE_H
#define PTM_TEST_CRASH_CASE_H

#include "workload.h"

#include <stdint.h>

struct case_env {
  const struct workload *w;
  const char *lib;
  const char *dir;       /* work directory */
  const char *base_pool; /* pool after init (never modified) */
  const char *pool_tool; /* ptm-pool (small pools, tool check), or NULL */
  uint64_t ops, op_seed;
  const char *mutate; /* PTM_CRASH_MUTATE, or NULL */
  unsigned threads;   /* 1..CASE_MAX_THREADS */
  int buffered;       /* PTM_DURABILITY=buffered for the run */
  uint64_t sync_every;
  int check_acked;    /* buffered, checked as strict: every acknowledged one */
  uint64_t slot_size; /* of the pool's slots (0: 64 KiB) */
  /* Only the syncs of the pool file are numbered (PTM_CRASH_EVENTS=sync):
   * the events that make anything persistent in the file domain. */
  int syncs_only;
};

#define CASE_MAX_THREADS 8

struct crash_point {
  uint64_t at;          /* event of the run (0: no crash) */
  const char *mode;     /* none, all, random */
  uint64_t seed;        /* of random */
  uint64_t recovery_at; /* event of the recovery (0: no crash there) */
  /* If set (and recovery_at is 0): the persistence events of recovering
   * the crash image, counted before it is checked. */
  int64_t *recovery_events;
};

enum case_result {
  CASE_OK,           /* recovered, invariants hold */
  CASE_NOT_REACHED,  /* the run (or recovery) ended before the event */
  CASE_VIOLATION,    /* recovery failed or an invariant does not hold */
  CASE_HARNESS_ERROR /* the test itself failed (I/O, fork) */
};

/* Creates the base pool DIR/base.pool (ptm-pool create if the tool is given,
 * else ptm_open) and runs the workload's init. 0 or -1 with a message. */
int make_base_pool(const struct case_env *e, char *path, size_t n);

/* Persistence events of the whole run (no crash). */
int64_t count_run_events(const struct case_env *e);

/* Persistence events of recovering IMAGE (a copy of it is used). */
int64_t count_recovery_events(const struct case_env *e, const char *image);

/* Runs one case; on a violation, WHY says what (and where the logs are). */
enum case_result run_case(const struct case_env *e, const struct crash_point *p,
                          char *why, size_t why_size);

/* Writes the command line that reproduces case P into BUF. */
void reproduce_command(const struct case_env *e, const char *argv0,
                       const struct crash_point *p, char *buf, size_t n);

#endif
