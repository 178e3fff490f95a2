/* The B+tree workloads' shared part: see bptree_bench.h. */
#include "bptree_bench.h"

#include <stdio.h>

static const char *bench_name;

bptree_bench_t *bptree_bench_open(const char *name) {
  bench_name = name;
  bptree_bench_t *b = bench_root(name, sizeof *b);
  b->slots = NULL;
  tx_slot_t *slots = tx_slots_new(name);
  int ok = 0;
  PTM_BEGIN();
  b->slots = slots;
  ok = bptree_init(&b->tree);
  PTM_END();
  if (!ok)
    tx_out_of_memory(name);
  return b;
}

int bptree_bench_insert(bptree_bench_t *b, tx_slot_t *slot, uint64_t key) {
  int done = 0;
  PTM_BEGIN();
  done = bptree_insert(&b->tree, key, BPTREE_VALUE_OF(key));
  if (done == 1 && slot)
    slot->v[0]++;
  PTM_END();
  if (done < 0)
    tx_out_of_memory(bench_name);
  return done;
}

static long bad_values;

static void check_value(uint64_t key, uint64_t val, void *arg) {
  (void)arg;
  if (val != BPTREE_VALUE_OF(key) && bad_values++ == 0)
    fprintf(stderr, "%s: key %llu has value %llu\n", bench_name,
            (unsigned long long)key, (unsigned long long)val);
}

long bptree_bench_check(const bptree_bench_t *b) {
  long keys = bptree_check(&b->tree, bench_name, check_value, NULL);
  return bad_values ? -1 : keys;
}
