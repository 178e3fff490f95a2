/*
 * tpcc_index_pmdk.h - the PMDK peer's TPC-C index (tpcc_index.h) in a
 * pmemobj pool: a hash table of a fixed number of buckets, each a chain of
 * nodes allocated in the inserting libpmemobj transaction, the bucket word
 * snapshotted (pmemobj_tx_add_range_direct) before it is changed. Nodes and
 * buckets hold pool offsets (0: none); tpcc_index_get returns a direct
 * pointer.
 *
 * tpcc_index_new and tpcc_index_put run inside a libpmemobj transaction
 * (an allocation that fails aborts it), tpcc_index_get anywhere,
 * tpcc_index_check outside. The index does no locking: the peer's
 * warehouse locks cover it (tpcc_index_new_by_warehouse).
 */
#ifndef PTM_PEERS_TPCC_INDEX_PMDK_H
#define PTM_PEERS_TPCC_INDEX_PMDK_H

#include "tpcc_index.h"

#include <libpmemobj.h>

/* The pool the indexes live in: call once, before any other function. */
void tpcc_index_pool(PMEMobjpool *pop);

/* Like tpcc_index_new, for the tables whose keys carry their warehouse: KEY
 * >> SHIFT is the district key (w * DISTRICTS + d). The buckets are split in
 * one part per warehouse, so two keys of different warehouses never share a
 * bucket and a transaction holding a warehouse's lock is alone on that
 * warehouse's part. */
tpcc_index_t *tpcc_index_new_by_warehouse(uint64_t expected_rows,
                                          unsigned shift);

#endif /* PTM_PEERS_TPCC_INDEX_PMDK_H */
