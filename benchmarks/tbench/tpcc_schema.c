/* The TPC-C New Order workload apart from its transactions: see
 * tpcc_schema.h. */
#include "tpcc_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tpcc_table_name[TABLES] = {
    "warehouse", "district", "customer",  "item",
    "stock",     "order",    "new_order", "order_line"};

long tpcc_warehouses = 4, tpcc_items = 10000, tpcc_customers = 300;
static long nurand_c; /* the run-time constant C of NURand */

int tpcc_option(int opt, const char *arg) {
  switch (opt) {
  case 'w':
    tpcc_warehouses = bench_parse_long("-w", arg, 1, 1L << 16);
    return 1;
  case 'i':
    tpcc_items = bench_parse_long("-i", arg, 1, 1L << 24);
    return 1;
  case 'c':
    tpcc_customers = bench_parse_long("-c", arg, 1, 1L << 24);
    return 1;
  }
  return 0;
}

/* NURand(A, x, y) of TPC-C clause 2.1.6, 0-based: in [0, n). */
static long nurand(bench_thread_t *t, long a, long n) {
  return ((bench_rand_below(t, a + 1) | bench_rand_below(t, n)) + nurand_c) % n;
}

static void fill_text(bench_thread_t *t, char *s, size_t n) {
  for (size_t i = 0; i + 1 < n; i++)
    s[i] = (char)('a' + bench_rand_below(t, 26));
  s[n - 1] = 0;
}

void tpcc_expected_rows(uint64_t expected[TABLES]) {
  uint64_t w = (uint64_t)tpcc_warehouses;
  expected[WAREHOUSE] = w;
  expected[DISTRICT] = w * DISTRICTS;
  expected[CUSTOMER] = w * DISTRICTS * (uint64_t)tpcc_customers;
  expected[ITEM] = (uint64_t)tpcc_items;
  expected[STOCK] = w * (uint64_t)tpcc_items;
  expected[ORDER] = 1 << 16;
  expected[NEW_ORDER] = 1 << 16;
  expected[ORDER_LINE] = 1 << 18;
}

void tpcc_generate(void (*row)(int table, uint64_t key, const void *v,
                               size_t size)) {
  bench_thread_t setup = bench_setup_thread();
  nurand_c = bench_rand_below(&setup, 1024);
  bench_thread_t t = bench_setup_thread();
  for (long i = 0; i < tpcc_items; i++) {
    struct item v = {.price = 100 + bench_rand_below(&t, 9901)};
    fill_text(&t, v.name, sizeof v.name);
    fill_text(&t, v.data, sizeof v.data);
    row(ITEM, (uint64_t)i, &v, sizeof v);
  }
  for (long w = 0; w < tpcc_warehouses; w++) {
    struct warehouse wv = {.tax = bench_rand_below(&t, 2001), .ytd = 30000000};
    fill_text(&t, wv.name, sizeof wv.name);
    row(WAREHOUSE, (uint64_t)w, &wv, sizeof wv);
    for (long i = 0; i < tpcc_items; i++) {
      struct stock sv = {.quantity = 10 + bench_rand_below(&t, 91)};
      for (int d = 0; d < DISTRICTS; d++)
        for (int j = 0; j < 3; j++)
          sv.dist[d][j] = bench_rand(&t);
      fill_text(&t, sv.data, sizeof sv.data);
      row(STOCK, skey(w, i), &sv, sizeof sv);
    }
    for (long d = 0; d < DISTRICTS; d++) {
      struct district dv = {
          .tax = bench_rand_below(&t, 2001), .next_o_id = 1, .ytd = 3000000};
      fill_text(&t, dv.name, sizeof dv.name);
      row(DISTRICT, dkey(w, d), &dv, sizeof dv);
      for (long c = 0; c < tpcc_customers; c++) {
        struct customer cv = {.discount = bench_rand_below(&t, 5001),
                              .balance = -1000};
        fill_text(&t, cv.last, sizeof cv.last);
        memcpy(cv.credit, bench_rand_below(&t, 10) ? "GC" : "BC", 3);
        row(CUSTOMER, ckey(w, d, c), &cv, sizeof cv);
      }
    }
  }
}

void tpcc_new_order_input(bench_thread_t *t, struct new_order_input *in) {
  in->w = bench_rand_below(t, tpcc_warehouses);
  in->d = bench_rand_below(t, DISTRICTS);
  in->c = nurand(t, 1023, tpcc_customers);
  in->ol_cnt = 5 + bench_rand_below(t, MAX_LINES - 5 + 1);
  in->all_local = 1;
  for (long l = 0; l < in->ol_cnt; l++) {
    in->i_id[l] = nurand(t, 8191, tpcc_items);
    in->supply_w[l] = in->w;
    if (tpcc_warehouses > 1 && bench_rand_below(t, 100) == 0) {
      long other = bench_rand_below(t, tpcc_warehouses - 1);
      in->supply_w[l] = other >= in->w ? other + 1 : other;
      in->all_local = 0;
    }
    in->qty[l] = 1 + bench_rand_below(t, 10);
  }
  in->now = t->ops;
}

void tpcc_order_failed(int done) {
  if (done == TPCC_NO_MEMORY)
    tx_out_of_memory("tpcc");
  fprintf(stderr, "tpcc_%s: %s\n", tpcc_index_kind,
          done == TPCC_MISSING_ROW ? "a row is missing from an index"
                                   : "an order's key is indexed already");
  exit(1);
}

static int fail(const char *what, long w, long d, long o) {
  fprintf(stderr, "tpcc_%s: warehouse %ld district %ld order %ld: %s\n",
          tpcc_index_kind, w, d, o, what);
  return 0;
}

int tpcc_validate(tpcc_index_t *const *ix, const tx_slot_t *s) {
  char who[32];
  snprintf(who, sizeof who, "tpcc_%s", tpcc_index_kind);
  long rows[TABLES];
  for (int i = 0; i < TABLES; i++)
    if ((rows[i] = tpcc_index_check(ix[i], who)) < 0)
      return fail(tpcc_table_name[i], -1, -1, -1);
  long orders = 0, lines = 0, quantity = 0;
  for (long w = 0; w < tpcc_warehouses; w++)
    for (long d = 0; d < DISTRICTS; d++) {
      const struct district *di = tpcc_index_get(ix[DISTRICT], dkey(w, d));
      long next = di->next_o_id;
      if (tpcc_index_get(ix[ORDER], okey(w, d, next)) ||
          tpcc_index_get(ix[NEW_ORDER], okey(w, d, next)))
        return fail("an order beyond d_next_o_id - 1", w, d, next);
      for (long o = 1; o < next; o++, orders++) {
        const struct order *or = tpcc_index_get(ix[ORDER], okey(w, d, o));
        const struct new_order *no =
            tpcc_index_get(ix[NEW_ORDER], okey(w, d, o));
        if (!or || !no || no->o_id != o)
          return fail("order or new-order missing", w, d, o);
        if (or->ol_cnt < 5 || or->ol_cnt > MAX_LINES)
          return fail("o_ol_cnt out of 5..15", w, d, o);
        if (tpcc_index_get(ix[ORDER_LINE], olkey(w, d, o, or->ol_cnt + 1)))
          return fail("order line beyond o_ol_cnt", w, d, o);
        for (long l = 1; l <= or->ol_cnt; l++, lines++) {
          const struct order_line *ol =
              tpcc_index_get(ix[ORDER_LINE], olkey(w, d, o, l));
          if (!ol)
            return fail("order line missing", w, d, o);
          quantity += ol->quantity;
        }
      }
    }
  long stock_ytd = 0, stock_orders = 0, stock_remote = 0;
  for (long w = 0; w < tpcc_warehouses; w++)
    for (long i = 0; i < tpcc_items; i++) {
      const struct stock *st = tpcc_index_get(ix[STOCK], skey(w, i));
      if (st->quantity < 10 || st->quantity > 100)
        return fail("s_quantity out of 10..100", w, -1, -1);
      stock_ytd += st->ytd;
      stock_orders += st->order_cnt;
      stock_remote += st->remote_cnt;
    }
  long t_orders = (long)tx_slots_sum(s, SLOT_ORDERS);
  long t_lines = (long)tx_slots_sum(s, SLOT_LINES);
  long t_qty = (long)tx_slots_sum(s, SLOT_QUANTITY);
  long t_remote = (long)tx_slots_sum(s, SLOT_REMOTE);
  if (orders != rows[ORDER] || orders != rows[NEW_ORDER] ||
      orders != t_orders || orders != bench_sum(-1) ||
      lines != rows[ORDER_LINE] || lines != t_lines || lines != bench_sum(0) ||
      lines != stock_orders || quantity != t_qty || quantity != stock_ytd ||
      stock_remote != t_remote) {
    fprintf(stderr,
            "%s: orders %ld (rows %ld, new-orders %ld, in transactions %ld, "
            "workers %ld); lines %ld (rows %ld, in transactions %ld, workers "
            "%ld, stock %ld); quantity %ld (in transactions %ld, stock %ld); "
            "remote %ld (in transactions %ld)\n",
            who, orders, rows[ORDER], rows[NEW_ORDER], t_orders, bench_sum(-1),
            lines, rows[ORDER_LINE], t_lines, bench_sum(0), stock_orders,
            quantity, t_qty, stock_ytd, stock_remote, t_remote);
    return 0;
  }
  printf("%s: %ld orders, %ld order lines (%ld remote), quantity %ld, "
         "amount %llu\n",
         who, orders, lines, stock_remote, quantity,
         (unsigned long long)tx_slots_sum(s, SLOT_AMOUNT));
  return 1;
}
