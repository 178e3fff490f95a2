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
#include "bench.h"
#include "bench_params.h"
#include "bptree.h"
#include "tx_slots.h"

#include <stdio.h>

struct root {
  bptree_t tree;
  tx_slot_t *slots; /* v[0]: inserted, v[1]: removed */
};

static struct root *root;
static long range_width = BPTREE_MIX_RANGE_WIDTH;

static int mix_option(int opt, const char *arg) {
  if (opt != 'r')
    return 0;
  range_width = bench_parse_long("-r", arg, 1, 1L << 40);
  return 1;
}

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &root->slots[tx_slot_index(t)];
  while (bench_continue(t)) {
    uint64_t key = (uint64_t)bench_rand_below(t, bench.key_range);
    long op = bench_rand_below(t, 100);
    long done = 0;
    uint64_t val = 0;
    if (op < BPTREE_MIX_LOOKUP_PERCENT) {
      PTM_BEGIN();
      done = bptree_lookup(&root->tree, key, &val);
      PTM_END();
      t->count[2] += done;
    } else if (op < BPTREE_MIX_LOOKUP_PERCENT + BPTREE_MIX_INSERT_PERCENT) {
      PTM_BEGIN();
      done = bptree_insert(&root->tree, key, BPTREE_VALUE_OF(key));
      if (done == 1)
        slot->v[0]++;
      PTM_END();
      if (done < 0)
        tx_out_of_memory("bptree_mix");
      t->count[0] += done;
    } else if (op < BPTREE_MIX_LOOKUP_PERCENT + BPTREE_MIX_INSERT_PERCENT +
                        BPTREE_MIX_RANGE_PERCENT) {
      PTM_BEGIN();
      done = bptree_range(&root->tree, key, key + (uint64_t)range_width, &val);
      PTM_END();
      t->count[3] += done;
    } else {
      PTM_BEGIN();
      done = bptree_remove(&root->tree, key);
      if (done)
        slot->v[1]++;
      PTM_END();
      t->count[1] += done;
    }
    t->ops++;
  }
}

static long bad_values;

static void check_value(uint64_t key, uint64_t val, void *arg) {
  (void)arg;
  if (val != BPTREE_VALUE_OF(key) && bad_values++ == 0)
    fprintf(stderr, "bptree_mix: key %llu has value %llu\n",
            (unsigned long long)key, (unsigned long long)val);
}

int main(int argc, char **argv) {
  bench.key_range = BPTREE_MIX_KEY_RANGE;
  bench_parse(argc, argv, "bptree_mix", "r:", " [-r RANGE_WIDTH]", mix_option);

  root = ptm_root(sizeof *root);
  if (!root) {
    fprintf(stderr, "bptree_mix: no root object\n");
    return 1;
  }
  tx_slot_t *slots = tx_slots_new("bptree_mix");
  int ok = 0;
  PTM_BEGIN();
  root->slots = slots;
  ok = bptree_init(&root->tree);
  PTM_END();
  if (!ok)
    tx_out_of_memory("bptree_mix");
  bench_thread_t setup = bench_setup_thread();
  long initial = 0;
  while (initial < bench.key_range / 2) {
    uint64_t key = (uint64_t)bench_rand_below(&setup, bench.key_range);
    int done = 0;
    PTM_BEGIN();
    done = bptree_insert(&root->tree, key, BPTREE_VALUE_OF(key));
    PTM_END();
    if (done < 0)
      tx_out_of_memory("bptree_mix");
    initial += done;
  }

  bench_run(worker);

  long keys = bptree_check(&root->tree, "bptree_mix", check_value, NULL);
  long inserted = (long)tx_slots_sum(root->slots, 0);
  long removed = (long)tx_slots_sum(root->slots, 1);
  ok = keys >= 0 && bad_values == 0;
  if (keys >= 0 && (keys != initial + inserted - removed ||
                    inserted != bench_sum(0) || removed != bench_sum(1))) {
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
