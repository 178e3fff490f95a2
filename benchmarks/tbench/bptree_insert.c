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
#include "bptree.h"
#include "tx_slots.h"

#include <stdio.h>

struct root {
  bptree_t tree;
  tx_slot_t *slots; /* v[0]: keys inserted */
};

static struct root *root;

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &root->slots[tx_slot_index(t)];
  while (bench_continue(t)) {
    uint64_t key = (uint64_t)bench_rand_below(t, bench.key_range);
    int done = 0;
    PTM_BEGIN();
    done = bptree_insert(&root->tree, key, BPTREE_VALUE_OF(key));
    if (done == 1)
      slot->v[0]++;
    PTM_END();
    if (done < 0)
      tx_out_of_memory("bptree_insert");
    t->count[0] += done;
    t->ops++;
  }
}

static long bad_values;

static void check_value(uint64_t key, uint64_t val, void *arg) {
  (void)arg;
  if (val != BPTREE_VALUE_OF(key) && bad_values++ == 0)
    fprintf(stderr, "bptree_insert: key %llu has value %llu\n",
            (unsigned long long)key, (unsigned long long)val);
}

int main(int argc, char **argv) {
  bench.key_range = BPTREE_INSERT_KEY_RANGE;
  bench_parse(argc, argv, "bptree_insert", NULL, NULL, NULL);

  root = ptm_root(sizeof *root);
  if (!root) {
    fprintf(stderr, "bptree_insert: no root object\n");
    return 1;
  }
  root->slots = NULL;
  tx_slot_t *slots = tx_slots_new("bptree_insert");
  int ok = 0;
  PTM_BEGIN();
  root->slots = slots;
  ok = bptree_init(&root->tree);
  PTM_END();
  if (!ok)
    tx_out_of_memory("bptree_insert");

  bench_run(worker);

  long keys = bptree_check(&root->tree, "bptree_insert", check_value, NULL);
  long counted = (long)tx_slots_sum(root->slots, 0);
  ok = keys >= 0 && bad_values == 0;
  if (keys >= 0 && (keys != counted || keys != bench_sum(0))) {
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
