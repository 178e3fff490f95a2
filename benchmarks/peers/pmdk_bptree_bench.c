/* The B+tree PMDK peers' shared part: see pmdk_bptree_bench.h. */
#include "pmdk_bptree_bench.h"

#include <stdio.h>
#include <stdlib.h>

struct pb_count { /* one per thread (and the setup thread), a cache line */
  long inserted;
  long removed;
  char pad[48];
};

POBJ_LAYOUT_BEGIN(bptree);
POBJ_LAYOUT_ROOT(bptree, struct pb_root);
POBJ_LAYOUT_TOID(bptree, struct pb_count);
POBJ_LAYOUT_END(bptree);

struct pb_root {
  struct pbtree tree;
  TOID(struct pb_count) counts; /* threads + 1 */
};

static PMEMobjpool *pop;
static struct pb_root *root;
static const char *bench_name;

void pbench_open(const char *name, char **argv) {
  bench_name = name;
  pop = pmdk_open_pool(name, POBJ_LAYOUT_NAME(bptree), argv);
  root = D_RW(POBJ_ROOT(pop, struct pb_root));
  TX_BEGIN(pop) {
    pbtree_init(&root->tree);
    TX_ADD_FIELD_DIRECT(root, counts);
    root->counts = TX_ZALLOC(struct pb_count, ((size_t)bench.threads + 1) *
                                                  sizeof(struct pb_count));
  }
  TX_ONABORT { pmdk_out_of_memory(name); }
  TX_END
}

static struct pb_count *counts_of(long thread) {
  return &D_RW(root->counts)[thread < 0 ? bench.threads : thread];
}

int pbench_insert(long thread, uint64_t key) {
  volatile int done = 0;
  TX_BEGIN_PARAM(pop, TX_PARAM_RWLOCK, &root->tree.lock, TX_PARAM_NONE) {
    done = pbtree_insert(&root->tree, key, BPTREE_VALUE_OF(key));
    if (done) {
      struct pb_count *c = counts_of(thread);
      TX_ADD_FIELD_DIRECT(c, inserted);
      c->inserted++;
    }
  }
  TX_ONABORT {
    pmdk_aborted();
    pmdk_out_of_memory(bench_name);
  }
  TX_END
  pmdk_committed();
  return done;
}

int pbench_remove(long thread, uint64_t key) {
  volatile int done = 0;
  TX_BEGIN_PARAM(pop, TX_PARAM_RWLOCK, &root->tree.lock, TX_PARAM_NONE) {
    done = pbtree_remove(&root->tree, key);
    if (done) {
      struct pb_count *c = counts_of(thread);
      TX_ADD_FIELD_DIRECT(c, removed);
      c->removed++;
    }
  }
  TX_ONABORT {
    pmdk_aborted();
    pmdk_out_of_memory(bench_name);
  }
  TX_END
  pmdk_committed();
  return done;
}

int pbench_lookup(uint64_t key) {
  uint64_t val;
  pmemobj_rwlock_rdlock(pop, &root->tree.lock);
  int found = pbtree_lookup(&root->tree, key, &val);
  pmemobj_rwlock_unlock(pop, &root->tree.lock);
  pmdk_committed();
  return found;
}

long pbench_range(uint64_t lo, uint64_t hi) {
  uint64_t sum;
  pmemobj_rwlock_rdlock(pop, &root->tree.lock);
  long n = pbtree_range(&root->tree, lo, hi, &sum);
  pmemobj_rwlock_unlock(pop, &root->tree.lock);
  pmdk_committed();
  return n;
}

static long bad_values;

static void check_value(uint64_t key, uint64_t val, void *arg) {
  const char *name = arg;
  if (val != BPTREE_VALUE_OF(key) && bad_values++ == 0)
    fprintf(stderr, "%s: key %llu has value %llu\n", name,
            (unsigned long long)key, (unsigned long long)val);
}

int pbench_validate(const char *name, long initial) {
  long keys = pbtree_check(&root->tree, name, check_value, (void *)name);
  long inserted = 0, removed = 0;
  for (long i = 0; i < bench.threads; i++) {
    inserted += D_RO(root->counts)[i].inserted;
    removed += D_RO(root->counts)[i].removed;
  }
  long setup = D_RO(root->counts)[bench.threads].inserted;
  int ok = keys >= 0 && bad_values == 0;
  if (keys >= 0 && (keys != initial + inserted - removed || setup != initial ||
                    inserted != bench_sum(0) || removed != bench_sum(1))) {
    fprintf(stderr,
            "%s: %ld keys; in transactions %ld initial + %ld inserted - %ld "
            "removed; workers %ld inserted, %ld removed\n",
            name, keys, setup, inserted, removed, bench_sum(0), bench_sum(1));
    ok = 0;
  }
  if (ok)
    printf("%s: %ld keys (%ld initial + %ld inserted - %ld removed), height "
           "%ld\n",
           name, keys, initial, inserted, removed, root->tree.height);
  return ok;
}

void pbench_close(void) { pmemobj_close(pop); }
