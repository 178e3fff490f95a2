/*
 * tpcc_hash.pmdk: the TPC-C New Order workload of tpcc_hash
 * (benchmarks/tbench/tpcc.c; rows, inputs and check from tpcc_schema.c,
 * the order's body from tpcc_order.h)
 * written against libpmemobj as a PMDK user would: rows and index nodes
 * allocated in the transaction that inserts them (pmemobj_tx_alloc), every
 * changed field of an existing row snapshotted first (TX_ADD_FIELD_DIRECT,
 * pmemobj_tx_add_range_direct), the hash indexes of tpcc_index_pmdk.c.
 *
 * Isolation is the program's: one PMEMmutex per warehouse, in the pool. An
 * order takes, inside its transaction (pmemobj_tx_lock, held to its end),
 * the locks of its home warehouse and of every warehouse supplying one of
 * its lines, in ascending order. That covers everything it changes: its
 * district, the stock rows of those warehouses, and its order, new-order
 * and order-line index entries, whose buckets are split by warehouse
 * (tpcc_index_new_by_warehouse). Items are only read.
 *
 * The fixed tables are loaded 256 rows per transaction (a PMDK user's bulk
 * load; the ptm version loads one row per transaction), outside the timed
 * run. Same options, seed, rows, orders and validation as tpcc_hash.
 *
 *   tpcc_hash.pmdk [common options] [-w WAREHOUSES] [-i ITEMS]
 *                  [-c CUSTOMERS_PER_DISTRICT]
 */
#include "bench.h"
#include "tpcc_index_pmdk.h"
#include "tpcc_schema.h"
#include "tx_slots.h"

/* libpmemobj: a snapshot before each change of an existing row; an
 * allocation that fails aborts the transaction. */
#define TPCC_ALLOC(bytes) pmemobj_direct(pmemobj_tx_alloc(bytes, 0))
#define TPCC_CHANGING(p, bytes) pmemobj_tx_add_range_direct(p, bytes)
#include "tpcc_order.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

POBJ_LAYOUT_BEGIN(tpcc);
POBJ_LAYOUT_ROOT(tpcc, struct tpcc_root);
POBJ_LAYOUT_END(tpcc);

struct tpcc_root {
  uint64_t index[TABLES]; /* pool offsets of the indexes */
  uint64_t slots;         /* of the tx_slot_t array (threads + 1) */
  uint64_t locks;         /* of the PMEMmutex array (one per warehouse) */
};

static PMEMobjpool *pop;
static tpcc_index_t *ix[TABLES];
static tx_slot_t *slots;
static PMEMmutex *locks;

static void *at(uint64_t off) { return (char *)pop + off; }

/* One transaction: the indexes, the tallies and the locks. */
static void create(void) {
  struct tpcc_root *root = D_RW(POBJ_ROOT(pop, struct tpcc_root));
  uint64_t expected[TABLES];
  tpcc_expected_rows(expected);
  TX_BEGIN(pop) {
    pmemobj_tx_add_range_direct(root, sizeof *root);
    for (int i = 0; i < TABLES; i++) {
      unsigned shift = i == ORDER || i == NEW_ORDER ? 32
                       : i == ORDER_LINE            ? 36
                                                    : 0;
      tpcc_index_t *t = shift ? tpcc_index_new_by_warehouse(expected[i], shift)
                              : tpcc_index_new(expected[i]);
      if (!t)
        pmemobj_tx_abort(ENOMEM);
      root->index[i] = (uint64_t)((char *)t - (char *)pop);
    }
    root->slots =
        pmemobj_tx_zalloc(((size_t)bench.threads + 1) * sizeof(tx_slot_t), 0)
            .off;
    root->locks =
        pmemobj_tx_zalloc((size_t)tpcc_warehouses * sizeof(PMEMmutex), 0).off;
  }
  TX_ONABORT { pmdk_out_of_memory("tpcc_hash"); }
  TX_END
  for (int i = 0; i < TABLES; i++)
    ix[i] = at(root->index[i]);
  slots = at(root->slots);
  locks = at(root->locks);
}

/* The bulk load: rows queued by load_row, inserted by flush_rows. */
#define LOAD_BATCH 256
static struct pending {
  int table;
  uint64_t key;
  size_t size;
  uint64_t v[sizeof(struct stock) / 8]; /* the largest row */
} batch[LOAD_BATCH];
static int nbatch;

static void flush_rows(void) {
  volatile int duplicate = -1;
  TX_BEGIN(pop) {
    for (int i = 0; i < nbatch; i++) {
      struct pending *p = &batch[i];
      void *row = pmemobj_direct(pmemobj_tx_alloc(p->size, 0));
      memcpy(row, p->v, p->size);
      if (tpcc_index_put(ix[p->table], p->key, row) != 1) {
        duplicate = p->table;
        pmemobj_tx_abort(EEXIST);
      }
    }
  }
  TX_ONABORT {
    if (duplicate < 0)
      pmdk_out_of_memory("tpcc_hash");
    fprintf(stderr, "tpcc_hash: loading %s: duplicate key\n",
            tpcc_table_name[duplicate]);
    exit(1);
  }
  TX_END
  nbatch = 0;
}

static void load_row(int table, uint64_t key, const void *v, size_t size) {
  if (size > sizeof batch[0].v) {
    fprintf(stderr, "tpcc_hash: a %s row of %zu bytes\n",
            tpcc_table_name[table], size);
    exit(1);
  }
  struct pending *p = &batch[nbatch++];
  p->table = table;
  p->key = key;
  p->size = size;
  memcpy(p->v, v, size);
  if (nbatch == LOAD_BATCH)
    flush_rows();
}

/* Inside the order's transaction: the locks of its warehouses, ascending. */
static void lock_warehouses(const struct new_order_input *in) {
  long w[MAX_LINES + 1];
  int n = 0;
  w[n++] = in->w;
  for (long l = 0; l < in->ol_cnt; l++)
    w[n++] = in->supply_w[l];
  for (int i = 1; i < n; i++) /* insertion sort: at most 16 */
    for (int j = i; j > 0 && w[j - 1] > w[j]; j--) {
      long x = w[j];
      w[j] = w[j - 1];
      w[j - 1] = x;
    }
  for (int i = 0; i < n; i++)
    if (i == 0 || w[i] != w[i - 1])
      pmemobj_tx_lock(TX_PARAM_MUTEX, &locks[w[i]]);
}

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &slots[tx_slot_index(t)];
  struct new_order_input in;
  while (bench_continue(t)) {
    tpcc_new_order_input(t, &in);
    volatile int done = 0;
    TX_BEGIN(pop) {
      lock_warehouses(&in);
      done = tpcc_new_order(ix, &in, slot);
    }
    TX_ONABORT {
      pmdk_aborted();
      pmdk_out_of_memory("tpcc_hash");
    }
    TX_END
    if (done != 1)
      tpcc_order_failed(done);
    pmdk_committed();
    t->count[0] += in.ol_cnt;
    t->ops++;
  }
}

int main(int argc, char **argv) {
  bench_parse(argc, argv, "tpcc_hash", TPCC_OPTIONS, TPCC_USAGE, tpcc_option);
  pop = pmdk_open_pool("tpcc_hash", POBJ_LAYOUT_NAME(tpcc), argv);
  tpcc_index_pool(pop);
  create();
  tpcc_generate(load_row);
  if (nbatch)
    flush_rows();

  bench_run(worker);

  int status = bench_finish("tpcc_hash", tpcc_validate(ix, slots));
  pmemobj_close(pop);
  return status;
}
