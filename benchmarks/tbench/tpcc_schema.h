/*
 * tpcc_schema.h - the TPC-C New Order workload apart from its transactions:
 * the tables' rows and keys, the options, the contents of the fixed tables,
 * the terminal's input of one order and the consistency check. tpcc.c runs
 * it with ptm (tpcc_hash, tpcc_bptree), benchmarks/peers/tpcc_pmdk.c with
 * libpmemobj (tpcc_hash.pmdk); both draw the same rows and the same orders
 * from the same seed and are checked by the same tpcc_validate.
 *
 * Scaled down by default (TPC-C: 100,000 items and 3,000 customers per
 * district): -w WAREHOUSES (4), -i ITEMS (10,000), -c CUSTOMERS per district
 * (300).
 */
#ifndef PTM_TBENCH_TPCC_SCHEMA_H
#define PTM_TBENCH_TPCC_SCHEMA_H

#include "bench.h"
#include "tpcc_index.h"
#include "tx_slots.h"

#include <stddef.h>
#include <stdint.h>

#define DISTRICTS 10
#define MAX_LINES 15

enum {
  WAREHOUSE,
  DISTRICT,
  CUSTOMER,
  ITEM,
  STOCK,
  ORDER,
  NEW_ORDER,
  ORDER_LINE,
  TABLES
};
extern const char *const tpcc_table_name[TABLES];

struct warehouse {
  long tax; /* basis points */
  long ytd;
  char name[16];
};
struct district {
  long tax;
  long next_o_id;
  long ytd;
  char name[16];
};
struct customer {
  long discount; /* basis points */
  long balance;
  char last[16];
  char credit[8];
};
struct item {
  long price; /* cents */
  char name[24];
  char data[56];
};
struct stock {
  long quantity;
  long ytd;
  long order_cnt;
  long remote_cnt;
  uint64_t dist[DISTRICTS][3]; /* s_dist_01..10, 24 bytes each */
  char data[56];
};
struct order {
  long c_id;
  long entry_d;
  long carrier_id;
  long ol_cnt;
  long all_local;
};
struct new_order {
  long o_id;
};
struct order_line {
  long i_id;
  long supply_w_id;
  long quantity;
  long amount;
  long delivery_d;
  uint64_t dist_info[3];
};

/* Rows are loaded in 8-byte words. */
#define WORDS(t) _Static_assert(sizeof(t) % 8 == 0, #t " is not whole words")
WORDS(struct warehouse);
WORDS(struct district);
WORDS(struct customer);
WORDS(struct item);
WORDS(struct stock);

/* The words of each thread's tx_slot, updated inside each order. */
enum { SLOT_ORDERS, SLOT_LINES, SLOT_QUANTITY, SLOT_REMOTE, SLOT_AMOUNT };

/* The options (-w, -i, -c) and the run-time constant C of NURand. */
extern long tpcc_warehouses, tpcc_items, tpcc_customers;
#define TPCC_OPTIONS "w:i:c:"
#define TPCC_USAGE " [-w WAREHOUSES] [-i ITEMS] [-c CUSTOMERS_PER_DISTRICT]"
int tpcc_option(int opt, const char *arg);

static inline uint64_t dkey(long w, long d) {
  return (uint64_t)(w * DISTRICTS + d);
}
static inline uint64_t okey(long w, long d, long o) {
  return dkey(w, d) << 32 | (uint64_t)o;
}
static inline uint64_t olkey(long w, long d, long o, long ol) {
  return okey(w, d, o) << 4 | (uint64_t)ol;
}
static inline uint64_t ckey(long w, long d, long c) {
  return dkey(w, d) * (uint64_t)tpcc_customers + (uint64_t)c;
}
static inline uint64_t skey(long w, long i) {
  return (uint64_t)w * (uint64_t)tpcc_items + (uint64_t)i;
}

/* How many rows each table's index is sized for. */
void tpcc_expected_rows(uint64_t expected[TABLES]);

/* Draws the constant C and the rows of the fixed tables (items, warehouses,
 * stock, districts, customers) with the setup generator and passes each to
 * ROW(table, key, row, bytes), in one order. */
void tpcc_generate(void (*row)(int table, uint64_t key, const void *v,
                               size_t size));

/* The terminal's input of one New Order (TPC-C clause 2.4.1). */
struct new_order_input {
  long w, d, c, ol_cnt;
  long i_id[MAX_LINES], supply_w[MAX_LINES], qty[MAX_LINES];
  long all_local, now;
};
void tpcc_new_order_input(bench_thread_t *t, struct new_order_input *in);

/* Outside transactions, after the run: the TPC-C consistency conditions
 * and the tallies (tpcc.c's header comment); 1 if all hold, else 0 after
 * printing the first violation. */
int tpcc_validate(tpcc_index_t *const *index, const tx_slot_t *slots);

/* What an order's transaction returns besides 1, done (tpcc_order.h):
 * the run ends after the transaction, with tpcc_order_failed's message. */
enum { TPCC_NO_MEMORY = -1, TPCC_MISSING_ROW = -2, TPCC_DUPLICATE_KEY = -3 };
void tpcc_order_failed(int done);

#endif /* PTM_TBENCH_TPCC_SCHEMA_H */
