/*
 * hashset: a set of integer keys in a hash table with a fixed number of
 * buckets; each bucket is a sorted chain of nodes allocated with ptm_malloc
 * inside the inserting transaction and freed with ptm_free inside the
 * removing one. An operation draws a key in [0, KEY_RANGE); UPDATE_PERCENT of
 * the operations are updates (half inserts, half removes), the rest lookups.
 * The set starts half full. Validation: every chain sorted and in its
 * bucket, and size = initial + successful inserts - successful removes.
 *
 *   hashset [common options] [-b BUCKETS]
 */
#include "bench.h"
#include "bench_params.h"
#include "set_worker.h"
#include "sorted_chain.h"

#include <stdio.h>
#include <stdlib.h>

struct hashset_root {
  long nbuckets;
  struct node **buckets;
};

static struct hashset_root *set;
static long nbuckets = HASHSET_BUCKETS;

static int hashset_option(int opt, const char *arg) {
  if (opt != 'b')
    return 0;
  nbuckets = bench_parse_long("-b", arg, 1, 1L << 32);
  return 1;
}

static struct node **bucket_of(long key) {
  return &set->buckets[(unsigned long)key % (unsigned long)set->nbuckets];
}

/* The three operations run inside transactions (the plugin clones them). */
static int set_contains(long key) {
  return chain_contains(bucket_of(key), key);
}
static int set_insert(long key) { return chain_insert(bucket_of(key), key); }
static int set_remove(long key) { return chain_remove(bucket_of(key), key); }

SET_BENCH_WORKER(worker, set_insert, set_remove, set_contains)

int main(int argc, char **argv) {
  bench.key_range = HASHSET_KEY_RANGE;
  bench.update = HASHSET_UPDATE_PERCENT;
  bench_parse(argc, argv, "hashset", "b:", " [-b BUCKETS]", hashset_option);

  set = bench_root("hashset", sizeof *set);
  PTM_BEGIN();
  set->nbuckets = nbuckets;
  set->buckets = ptm_calloc(nbuckets, sizeof(struct node *));
  PTM_END();
  if (!set->buckets) {
    fprintf(stderr, "hashset: cannot allocate %ld buckets\n", nbuckets);
    return 1;
  }
  long initial = bench_fill(worker_insert);

  bench_run(worker);

  long size = 0;
  int ok = 1;
  for (long b = 0; b < set->nbuckets; b++)
    for (struct node *n = set->buckets[b]; n; n = n->next, size++) {
      if ((unsigned long)n->key % (unsigned long)set->nbuckets !=
              (unsigned long)b ||
          (n->next && n->next->key <= n->key)) {
        fprintf(stderr, "hashset: bucket %ld: key %ld misplaced\n", b, n->key);
        ok = 0;
      }
    }
  return set_bench_finish("hashset", size, initial, ok, "");
}
