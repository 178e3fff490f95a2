/*
 * tpcc_hash / tpcc_bptree: the TPC-C New Order transaction (the paper,
 * Section III-C, after DudeTM), written from the TPC-C specification
 * (clause 2.4). Tables: warehouse, district, customer, item, stock, order,
 * new-order, order-line; every table is reached through an index (a hash
 * table in tpcc_hash, the B+tree in tpcc_bptree: tpcc_index.h), rows live in
 * the pool (ptm_malloc inside the inserting transaction).
 *
 * One operation = one New Order transaction: a random warehouse and
 * district, a customer by NURand(1023), 5..15 order lines with items by
 * NURand(8191) and quantities 1..10, each line supplied by a remote
 * warehouse with probability 1% (when there is more than one); it takes
 * d_next_o_id, inserts the order, the new-order and the order lines, and
 * updates every stock row (quantity, ytd, order and remote counts). The
 * spec's 1% of rolled-back orders (unused item id) is not modelled: ptm has
 * no user abort.
 *
 * The rows, keys, options, generated contents, inputs and the check are
 * tpcc_schema.c's and the order's body tpcc_order.h's, shared with the PMDK
 * peer (benchmarks/peers/tpcc_pmdk.c).
 *
 * Validation (TPC-C consistency conditions 2-4 and more): per district
 * d_next_o_id - 1 = max(o_id) = max(no_o_id), orders 1..d_next_o_id - 1 all
 * present with their new-orders, order lines 1..o_ol_cnt present for every
 * order and none beyond; sum(o_ol_cnt) = order-line rows; the totals equal
 * per-thread tallies kept inside the transactions (orders, lines, quantity,
 * remote lines) and the stock columns (sum s_ytd = sum ol_quantity, sum
 * s_order_cnt = lines, sum s_remote_cnt = remote lines, 10 <= s_quantity <=
 * 100); every index passes its own check.
 */
#include "bench.h"
#include "tpcc_index.h"
#include "tpcc_schema.h"
#include "tx_slots.h"

/* ptm's writes are instrumented: nothing to do before them. */
#define TPCC_ALLOC(bytes) ptm_malloc(bytes)
#define TPCC_CHANGING(p, bytes) ((void)0)
#include "tpcc_order.h"

#include <stdio.h>
#include <stdlib.h>

struct root {
  tpcc_index_t *index[TABLES];
  tx_slot_t *slots;
};

static struct root *root;

/* Copies the row V of SIZE bytes (a multiple of 8) into a new row of the
 * pool and indexes it under KEY: one transaction. */
static void load_row(int table, uint64_t key, const void *v, size_t size) {
  int done = 0;
  PTM_BEGIN();
  uint64_t *row = ptm_malloc(size);
  if (row) {
    const uint64_t *src = v;
    for (size_t i = 0; i < size / 8; i++)
      row[i] = src[i];
    done = tpcc_index_put(root->index[table], key, row);
  } else {
    done = -1;
  }
  PTM_END();
  if (done != 1) {
    fprintf(stderr, "tpcc_%s: loading %s: %s\n", tpcc_index_kind,
            tpcc_table_name[table],
            done < 0 ? "out of memory" : "duplicate key");
    exit(1);
  }
}

/* Loads the fixed tables, one transaction per row. */
static void load(void) {
  uint64_t expected[TABLES];
  tpcc_expected_rows(expected);
  int ok = 1;
  tx_slot_t *slots = tx_slots_new("tpcc");
  PTM_BEGIN();
  root->slots = slots;
  for (int i = 0; i < TABLES; i++)
    ok &= (root->index[i] = tpcc_index_new(expected[i])) != NULL;
  PTM_END();
  if (!ok) {
    fprintf(stderr, "tpcc_%s: out of memory for the indexes\n",
            tpcc_index_kind);
    exit(1);
  }
  tpcc_generate(load_row);
}

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &root->slots[tx_slot_index(t)];
  struct new_order_input in;
  while (bench_continue(t)) {
    tpcc_new_order_input(t, &in);
    int done = 0;
    PTM_BEGIN();
    done = tpcc_new_order(root->index, &in, slot);
    PTM_END();
    if (done != 1)
      tpcc_order_failed(done);
    t->count[0] += in.ol_cnt;
    t->ops++;
  }
}

int main(int argc, char **argv) {
  char name[32];
  snprintf(name, sizeof name, "tpcc_%s", tpcc_index_kind);
  bench_parse(argc, argv, name, TPCC_OPTIONS, TPCC_USAGE, tpcc_option);
  root = bench_root(name, sizeof *root);
  load();

  bench_run(worker);

  return bench_finish(name, tpcc_validate(root->index, root->slots));
}
