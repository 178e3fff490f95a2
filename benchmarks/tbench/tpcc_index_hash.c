/* The TPC-C index as a hash table (tpcc_hash): see tpcc_index.h. */
#include "hashtable.h"
#include "tpcc_index.h"

struct tpcc_index {
  hashtable_t table;
};

const char tpcc_index_kind[] = "hash";

BENCH_TX_SAFE tpcc_index_t *tpcc_index_new(uint64_t expected_rows) {
  tpcc_index_t *ix = ptm_malloc(sizeof *ix);
  if (!ix)
    return NULL;
  if (!hashtable_init(&ix->table, expected_rows)) {
    ptm_free(ix);
    return NULL;
  }
  return ix;
}

BENCH_TX_SAFE int tpcc_index_put(tpcc_index_t *ix, uint64_t key, void *row) {
  return hashtable_insert(&ix->table, key, (uint64_t)(uintptr_t)row);
}

BENCH_TX_SAFE void *tpcc_index_get(const tpcc_index_t *ix, uint64_t key) {
  uint64_t v;
  return hashtable_lookup(&ix->table, key, &v) ? (void *)(uintptr_t)v : NULL;
}

long tpcc_index_check(const tpcc_index_t *ix, const char *who) {
  return hashtable_check(&ix->table, who, NULL, NULL);
}
