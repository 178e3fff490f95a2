/*
 * hashset.pmdk: the hashset benchmark (benchmarks/micro/hashset.c) written
 * against libpmemobj as a PMDK user would: buckets of sorted chains of
 * TOID-linked nodes in a pmemobj pool, one PMEMmutex per bucket (in the
 * pool), updates in a libpmemobj transaction holding the bucket's lock
 * (TX_BEGIN_PARAM with TX_PARAM_MUTEX, TX_ADD_DIRECT, TX_NEW, TX_FREE),
 * lookups under the lock alone. Same options, defaults (bench_params.h),
 * random keys, operation mix (set_worker.h), initial fill and validation as
 * the ptm version; the per-thread insert/remove counts are kept in the pool
 * and updated inside the transactions.
 *
 *   hashset.pmdk [common options] [-b BUCKETS]
 */
#include "bench.h"
#include "bench_params.h"
#include "set_worker.h"

#include <stdio.h>
#include <stdlib.h>

POBJ_LAYOUT_BEGIN(hashset);
POBJ_LAYOUT_ROOT(hashset, struct hs_root);
POBJ_LAYOUT_TOID(hashset, struct hs_node);
POBJ_LAYOUT_TOID(hashset, struct hs_bucket);
POBJ_LAYOUT_TOID(hashset, struct hs_count);
POBJ_LAYOUT_END(hashset);

struct hs_node {
  long key;
  TOID(struct hs_node) next;
};

struct hs_bucket {
  PMEMmutex lock;
  TOID(struct hs_node) head;
};

struct hs_count { /* one per thread (and the setup thread), a cache line */
  long inserted;
  long removed;
  char pad[48];
};

struct hs_root {
  long nbuckets;
  TOID(struct hs_bucket) buckets; /* array of nbuckets */
  TOID(struct hs_count) counts;   /* array of threads + 1 */
};

static PMEMobjpool *pop;
static struct hs_root *set;
static long nbuckets = HASHSET_BUCKETS;
static _Thread_local long my_count = -1;

static int hashset_option(int opt, const char *arg) {
  if (opt != 'b')
    return 0;
  nbuckets = bench_parse_long("-b", arg, 1, 1L << 32);
  return 1;
}

static struct hs_bucket *bucket_of(long key) {
  return &D_RW(set->buckets)[(unsigned long)key % (unsigned long)nbuckets];
}

static struct hs_count *my_counts(void) {
  return &D_RW(set->counts)[my_count < 0 ? bench.threads : my_count];
}

static int set_contains(long key) {
  struct hs_bucket *b = bucket_of(key);
  int found = 0;
  pmemobj_mutex_lock(pop, &b->lock);
  for (TOID(struct hs_node) n = b->head;
       !TOID_IS_NULL(n) && D_RO(n)->key <= key; n = D_RO(n)->next)
    if (D_RO(n)->key == key) {
      found = 1;
      break;
    }
  pmemobj_mutex_unlock(pop, &b->lock);
  pmdk_committed();
  return found;
}

static int set_insert(long key) {
  struct hs_bucket *b = bucket_of(key);
  volatile int done = 0;
  TX_BEGIN_PARAM(pop, TX_PARAM_MUTEX, &b->lock, TX_PARAM_NONE) {
    TOID(struct hs_node) *prev = &b->head;
    while (!TOID_IS_NULL(*prev) && D_RO(*prev)->key < key)
      prev = &D_RW(*prev)->next;
    if (TOID_IS_NULL(*prev) || D_RO(*prev)->key != key) {
      TOID(struct hs_node) n = TX_NEW(struct hs_node);
      D_RW(n)->key = key;
      D_RW(n)->next = *prev;
      TX_ADD_DIRECT(prev);
      *prev = n;
      struct hs_count *c = my_counts();
      TX_ADD_FIELD_DIRECT(c, inserted);
      c->inserted++;
      done = 1;
    }
  }
  TX_ONABORT {
    pmdk_aborted();
    pmdk_out_of_memory("hashset");
  }
  TX_END
  pmdk_committed();
  return done;
}

static int set_remove(long key) {
  struct hs_bucket *b = bucket_of(key);
  volatile int done = 0;
  TX_BEGIN_PARAM(pop, TX_PARAM_MUTEX, &b->lock, TX_PARAM_NONE) {
    TOID(struct hs_node) *prev = &b->head;
    while (!TOID_IS_NULL(*prev) && D_RO(*prev)->key < key)
      prev = &D_RW(*prev)->next;
    TOID(struct hs_node) n = *prev;
    if (!TOID_IS_NULL(n) && D_RO(n)->key == key) {
      TX_ADD_DIRECT(prev);
      *prev = D_RO(n)->next;
      TX_FREE(n);
      struct hs_count *c = my_counts();
      TX_ADD_FIELD_DIRECT(c, removed);
      c->removed++;
      done = 1;
    }
  }
  TX_ONABORT {
    pmdk_aborted();
    pmdk_out_of_memory("hashset");
  }
  TX_END
  pmdk_committed();
  return done;
}

/* The worker of set_worker.h, after binding the thread to its counters. */
SET_BENCH_WORKER(set_worker, set_insert, set_remove, set_contains)

static void worker(bench_thread_t *t) {
  my_count = t->id;
  set_worker(t);
}

int main(int argc, char **argv) {
  bench.key_range = HASHSET_KEY_RANGE;
  bench.update = HASHSET_UPDATE_PERCENT;
  bench_parse(argc, argv, "hashset", "b:", " [-b BUCKETS]", hashset_option);
  pop = pmdk_open_pool("hashset", POBJ_LAYOUT_NAME(hashset), argv);

  TOID(struct hs_root) root = POBJ_ROOT(pop, struct hs_root);
  set = D_RW(root);
  TX_BEGIN(pop) {
    TX_ADD(root);
    set->nbuckets = nbuckets;
    set->buckets = TX_ZALLOC(struct hs_bucket,
                             (size_t)nbuckets * sizeof(struct hs_bucket));
    set->counts = TX_ZALLOC(struct hs_count, ((size_t)bench.threads + 1) *
                                                 sizeof(struct hs_count));
  }
  TX_ONABORT { pmdk_out_of_memory("hashset"); }
  TX_END

  long initial = bench_fill(set_insert);

  bench_run(worker);

  long size = 0, inserted = 0, removed = 0;
  int ok = 1;
  for (long b = 0; b < nbuckets; b++)
    for (TOID(struct hs_node) n = D_RO(set->buckets)[b].head; !TOID_IS_NULL(n);
         n = D_RO(n)->next, size++) {
      long key = D_RO(n)->key;
      TOID(struct hs_node) next = D_RO(n)->next;
      if ((unsigned long)key % (unsigned long)nbuckets != (unsigned long)b ||
          (!TOID_IS_NULL(next) && D_RO(next)->key <= key)) {
        fprintf(stderr, "hashset: bucket %ld: key %ld misplaced\n", b, key);
        ok = 0;
      }
    }
  for (long i = 0; i < bench.threads; i++) {
    inserted += D_RO(set->counts)[i].inserted;
    removed += D_RO(set->counts)[i].removed;
  }
  long setup_count = D_RO(set->counts)[bench.threads].inserted;
  long expected = initial + bench_sum(0) - bench_sum(1);
  if (size != expected || setup_count != initial || inserted != bench_sum(0) ||
      removed != bench_sum(1)) {
    fprintf(stderr,
            "hashset: size %ld, expected %ld; in transactions %ld initial, "
            "%ld inserted, %ld removed; workers %ld inserted, %ld removed\n",
            size, expected, setup_count, inserted, removed, bench_sum(0),
            bench_sum(1));
    ok = 0;
  }
  if (ok)
    printf("hashset: %ld keys (%ld initial + %ld inserted - %ld removed)\n",
           size, initial, bench_sum(0), bench_sum(1));
  int status = bench_finish("hashset", ok);
  pmemobj_close(pop);
  return status;
}
