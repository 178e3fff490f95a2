/*
 * bptree_mix: the mixed B+tree workload of the paper (Section III-C): an
 * even mix of lookup, insert, range query and remove (bench_params.h), one
 * transaction each, keys uniform in [0, KEY_RANGE); a range query sums the
 * values of the keys in [k, k + RANGE_WIDTH). The tree starts half full.
 * Validation: every B+tree invariant, every value the one of its key, and
 * the number of keys equal to initial + inserts - removes counted inside the
 * transactions (and by the workers).
 *
 *   bptree_mix [common options] [-r RANGE_WIDTH]        (-u is ignored)
 */
#include "bptree_mix.h"
#include "bench.h"
#include "bench_params.h"
#include "bptree_bench.h"

#include <stdio.h>

static bptree_bench_t *root;

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &root->slots[tx_slot_index(t)];
  while (bench_continue(t)) {
    uint64_t key = (uint64_t)bench_rand_below(t, bench.key_range);
    long done = 0;
    uint64_t val = 0;
    switch (bptree_mix_draw(t)) {
    case MIX_LOOKUP:
      PTM_BEGIN();
      done = bptree_lookup(&root->tree, key, &val);
      PTM_END();
      t->count[2] += done;
      break;
    case MIX_INSERT:
      t->count[0] += bptree_bench_insert(root, slot, key);
      break;
    case MIX_RANGE:
      PTM_BEGIN();
      done = bptree_range(&root->tree, key,
                          key + (uint64_t)bptree_mix_range_width, &val);
      PTM_END();
      t->count[3] += done;
      break;
    case MIX_REMOVE:
      PTM_BEGIN();
      done = bptree_remove(&root->tree, key);
      if (done)
        slot->v[1]++;
      PTM_END();
      t->count[1] += done;
      break;
    }
    t->ops++;
  }
}

/* The initial fill: not counted in the slots (validation adds it). */
static int fill_insert(long key) {
  return bptree_bench_insert(root, NULL, (uint64_t)key);
}

int main(int argc, char **argv) {
  bench.key_range = BPTREE_MIX_KEY_RANGE;
  bench_parse(argc, argv, "bptree_mix", BPTREE_MIX_OPTS, BPTREE_MIX_USAGE,
              bptree_mix_option);
  root = bptree_bench_open("bptree_mix");
  long initial = bench_fill(fill_insert);

  bench_run(worker);

  long keys = bptree_bench_check(root);
  long inserted = (long)tx_slots_sum(root->slots, 0);
  long removed = (long)tx_slots_sum(root->slots, 1);
  int ok = keys >= 0;
  if (ok && (keys != initial + inserted - removed || inserted != bench_sum(0) ||
             removed != bench_sum(1))) {
    fprintf(stderr,
            "bptree_mix: %ld keys; in transactions %ld initial + %ld "
            "inserted - %ld removed; workers %ld inserted, %ld removed\n",
            keys, initial, inserted, removed, bench_sum(0), bench_sum(1));
    ok = 0;
  }
  if (ok)
    printf("bptree_mix: %ld keys (%ld initial + %ld inserted - %ld removed), "
           "height %ld, %ld range keys read\n",
           keys, initial, inserted, removed, root->tree.height, bench_sum(3));
  return bench_finish("bptree_mix", ok);
}
