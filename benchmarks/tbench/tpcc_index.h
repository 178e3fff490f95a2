/*
 * tpcc_index.h - the index of the TPC-C tables: 64-bit key -> row pointer.
 * tpcc_hash links tpcc_index_hash.c (a hash table), tpcc_bptree links
 * tpcc_index_bptree.c (the B+tree); tpcc.c is the same for both.
 * Every operation but tpcc_index_check runs inside a transaction.
 */
#ifndef PTM_TBENCH_TPCC_INDEX_H
#define PTM_TBENCH_TPCC_INDEX_H

#include "bench.h"

#include <stdint.h>

typedef struct tpcc_index tpcc_index_t;

/* The kind of index linked: "hash" or "bptree". */
extern const char tpcc_index_kind[];

/* A new empty index sized for about EXPECTED_ROWS rows; NULL if out of
 * memory. */
BENCH_TX_SAFE tpcc_index_t *tpcc_index_new(uint64_t expected_rows);

/* 1 if inserted, 0 if KEY was present, -1 if out of memory. */
BENCH_TX_SAFE int tpcc_index_put(tpcc_index_t *ix, uint64_t key, void *row);

/* The row of KEY, or NULL. */
BENCH_TX_SAFE void *tpcc_index_get(const tpcc_index_t *ix, uint64_t key);

/* Outside transactions: checks the index's invariants; the number of rows,
 * or -1 after printing the violation (prefixed with WHO). */
long tpcc_index_check(const tpcc_index_t *ix, const char *who);

#endif /* PTM_TBENCH_TPCC_INDEX_H */
