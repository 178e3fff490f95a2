/* The TPC-C index as a B+tree (tpcc_bptree): see tpcc_index.h. */
#include "bptree.h"
#include "tpcc_index.h"

struct tpcc_index {
  bptree_t tree;
};

const char tpcc_index_kind[] = "bptree";

BENCH_TX_SAFE tpcc_index_t *tpcc_index_new(uint64_t expected_rows) {
  (void)expected_rows;
  tpcc_index_t *ix = ptm_malloc(sizeof *ix);
  if (!ix)
    return NULL;
  if (!bptree_init(&ix->tree)) {
    ptm_free(ix);
    return NULL;
  }
  return ix;
}

BENCH_TX_SAFE int tpcc_index_put(tpcc_index_t *ix, uint64_t key, void *row) {
  return bptree_insert(&ix->tree, key, (uint64_t)(uintptr_t)row);
}

BENCH_TX_SAFE void *tpcc_index_get(const tpcc_index_t *ix, uint64_t key) {
  uint64_t v;
  return bptree_lookup(&ix->tree, key, &v) ? (void *)(uintptr_t)v : NULL;
}

long tpcc_index_check(const tpcc_index_t *ix, const char *who) {
  return bptree_check(&ix->tree, who, NULL, NULL);
}
