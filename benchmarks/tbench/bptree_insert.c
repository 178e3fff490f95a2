/*
 * bptree_insert: the insert-only B+tree workload of the paper (Section
 * III-C, from DudeTM): every operation is one transaction inserting a key
 * drawn uniformly from [0, KEY_RANGE) (with its value) into a B+tree that
 * starts empty; keys already present leave the tree unchanged.
 * Validation: every B+tree invariant, every value the one of its key, and
 * the number of keys equal to the inserts counted inside the transactions
 * (and to the workers' own tallies).
 *
 *   bptree_insert [common options]        (-u is ignored)
 */
#include "bench.h"
#include "bench_params.h"
#include "bptree_bench.h"

#include <stdio.h>

static bptree_bench_t *root;

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &root->slots[tx_slot_index(t)];
  while (bench_continue(t)) {
    uint64_t key = (uint64_t)bench_rand_below(t, bench.key_range);
    t->count[0] += bptree_bench_insert(root, slot, key);
    t->ops++;
  }
}

int main(int argc, char **argv) {
  bench.key_range = BPTREE_INSERT_KEY_RANGE;
  bench_parse(argc, argv, "bptree_insert", NULL, NULL, NULL);
  root = bptree_bench_open("bptree_insert");

  bench_run(worker);

  long keys = bptree_bench_check(root);
  long counted = (long)tx_slots_sum(root->slots, 0);
  int ok = keys >= 0;
  if (ok && (keys != counted || keys != bench_sum(0))) {
    fprintf(stderr,
            "bptree_insert: %ld keys, %ld inserts counted in transactions, "
            "%ld by the workers\n",
            keys, counted, bench_sum(0));
    ok = 0;
  }
  if (ok)
    printf("bptree_insert: %ld keys, height %ld\n", keys, root->tree.height);
  return bench_finish("bptree_insert", ok);
}
