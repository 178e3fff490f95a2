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
 * Scaled down by default (TPC-C: 100,000 items and 3,000 customers per
 * district): -w WAREHOUSES (4), -i ITEMS (10,000), -c CUSTOMERS per district
 * (300).
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
#include "tx_slots.h"

#include <stdio.h>
#include <string.h>

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
static const char *const table_name[TABLES] = {
    "warehouse", "district", "customer",  "item",
    "stock",     "order",    "new_order", "order_line"};

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

/* load_row copies rows in 8-byte words. */
#define WORDS(t) _Static_assert(sizeof(t) % 8 == 0, #t " is not whole words")
WORDS(struct warehouse);
WORDS(struct district);
WORDS(struct customer);
WORDS(struct item);
WORDS(struct stock);

/* tx_slot words */
enum { SLOT_ORDERS, SLOT_LINES, SLOT_QUANTITY, SLOT_REMOTE, SLOT_AMOUNT };

struct root {
  tpcc_index_t *index[TABLES];
  tx_slot_t *slots;
};

static struct root *root;
static long warehouses = 4, items = 10000, customers = 300;
static long nurand_c; /* the run-time constant C of NURand */

static int tpcc_option(int opt, const char *arg) {
  switch (opt) {
  case 'w':
    warehouses = bench_parse_long("-w", arg, 1, 1L << 16);
    return 1;
  case 'i':
    items = bench_parse_long("-i", arg, 1, 1L << 24);
    return 1;
  case 'c':
    customers = bench_parse_long("-c", arg, 1, 1L << 24);
    return 1;
  }
  return 0;
}

static uint64_t dkey(long w, long d) { return (uint64_t)(w * DISTRICTS + d); }
static uint64_t okey(long w, long d, long o) {
  return dkey(w, d) << 32 | (uint64_t)o;
}
static uint64_t olkey(long w, long d, long o, long ol) {
  return okey(w, d, o) << 4 | (uint64_t)ol;
}
static uint64_t ckey(long w, long d, long c) {
  return dkey(w, d) * (uint64_t)customers + (uint64_t)c;
}
static uint64_t skey(long w, long i) {
  return (uint64_t)w * (uint64_t)items + (uint64_t)i;
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

static void missing_row(void) {
  fprintf(stderr, "tpcc_%s: a row is missing from an index\n", tpcc_index_kind);
  exit(1);
}

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
            table_name[table], done < 0 ? "out of memory" : "duplicate key");
    exit(1);
  }
}

/* Loads the fixed tables, one transaction per row. */
static void load(void) {
  bench_thread_t t = bench_setup_thread();
  uint64_t expected[TABLES] = {
      [WAREHOUSE] = (uint64_t)warehouses,
      [DISTRICT] = (uint64_t)(warehouses * DISTRICTS),
      [CUSTOMER] = (uint64_t)(warehouses * DISTRICTS * customers),
      [ITEM] = (uint64_t)items,
      [STOCK] = (uint64_t)(warehouses * items),
      [ORDER] = 1 << 16,
      [NEW_ORDER] = 1 << 16,
      [ORDER_LINE] = 1 << 18};
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
  for (long i = 0; i < items; i++) {
    struct item v = {.price = 100 + bench_rand_below(&t, 9901)};
    fill_text(&t, v.name, sizeof v.name);
    fill_text(&t, v.data, sizeof v.data);
    load_row(ITEM, (uint64_t)i, &v, sizeof v);
  }
  for (long w = 0; w < warehouses; w++) {
    struct warehouse wv = {.tax = bench_rand_below(&t, 2001), .ytd = 30000000};
    fill_text(&t, wv.name, sizeof wv.name);
    load_row(WAREHOUSE, (uint64_t)w, &wv, sizeof wv);
    for (long i = 0; i < items; i++) {
      struct stock sv = {.quantity = 10 + bench_rand_below(&t, 91)};
      for (int d = 0; d < DISTRICTS; d++)
        for (int j = 0; j < 3; j++)
          sv.dist[d][j] = bench_rand(&t);
      fill_text(&t, sv.data, sizeof sv.data);
      load_row(STOCK, skey(w, i), &sv, sizeof sv);
    }
    for (long d = 0; d < DISTRICTS; d++) {
      struct district dv = {
          .tax = bench_rand_below(&t, 2001), .next_o_id = 1, .ytd = 3000000};
      fill_text(&t, dv.name, sizeof dv.name);
      load_row(DISTRICT, dkey(w, d), &dv, sizeof dv);
      for (long c = 0; c < customers; c++) {
        struct customer cv = {.discount = bench_rand_below(&t, 5001),
                              .balance = -1000};
        fill_text(&t, cv.last, sizeof cv.last);
        memcpy(cv.credit, bench_rand_below(&t, 10) ? "GC" : "BC", 3);
        load_row(CUSTOMER, ckey(w, d, c), &cv, sizeof cv);
      }
    }
  }
}

/* The terminal's input of one New Order (TPC-C clause 2.4.1). */
struct new_order_input {
  long w, d, c, ol_cnt;
  long i_id[MAX_LINES], supply_w[MAX_LINES], qty[MAX_LINES];
  long all_local, now;
};

static void new_order_input(bench_thread_t *t, struct new_order_input *in) {
  in->w = bench_rand_below(t, warehouses);
  in->d = bench_rand_below(t, DISTRICTS);
  in->c = nurand(t, 1023, customers);
  in->ol_cnt = 5 + bench_rand_below(t, MAX_LINES - 5 + 1);
  in->all_local = 1;
  for (long l = 0; l < in->ol_cnt; l++) {
    in->i_id[l] = nurand(t, 8191, items);
    in->supply_w[l] = in->w;
    if (warehouses > 1 && bench_rand_below(t, 100) == 0) {
      long other = bench_rand_below(t, warehouses - 1);
      in->supply_w[l] = other >= in->w ? other + 1 : other;
      in->all_local = 0;
    }
    in->qty[l] = 1 + bench_rand_below(t, 10);
  }
  in->now = t->ops;
}

/* The New Order transaction's body: 1 on success, -1 out of memory, -2 a
 * row is missing (both end the run after the transaction). */
static int new_order(const struct new_order_input *in, tx_slot_t *slot) {
  tpcc_index_t *const *ix = root->index;
  struct warehouse *w = tpcc_index_get(ix[WAREHOUSE], (uint64_t)in->w);
  struct district *d = tpcc_index_get(ix[DISTRICT], dkey(in->w, in->d));
  struct customer *c = tpcc_index_get(ix[CUSTOMER], ckey(in->w, in->d, in->c));
  if (!w || !d || !c)
    return -2;
  long o_id = d->next_o_id;
  d->next_o_id = o_id + 1;
  struct order *o = ptm_malloc(sizeof *o);
  struct new_order *no = ptm_malloc(sizeof *no);
  if (!o || !no)
    return -1;
  o->c_id = in->c;
  o->entry_d = in->now;
  o->carrier_id = 0;
  o->ol_cnt = in->ol_cnt;
  o->all_local = in->all_local;
  no->o_id = o_id;
  if (tpcc_index_put(ix[ORDER], okey(in->w, in->d, o_id), o) != 1 ||
      tpcc_index_put(ix[NEW_ORDER], okey(in->w, in->d, o_id), no) != 1)
    return -1;
  long total = 0, quantity = 0, remote = 0;
  for (long l = 0; l < in->ol_cnt; l++) {
    struct item *it = tpcc_index_get(ix[ITEM], (uint64_t)in->i_id[l]);
    struct stock *s =
        tpcc_index_get(ix[STOCK], skey(in->supply_w[l], in->i_id[l]));
    if (!it || !s)
      return -2;
    long q = in->qty[l];
    s->quantity =
        s->quantity >= q + 10 ? s->quantity - q : s->quantity - q + 91;
    s->ytd += q;
    s->order_cnt++;
    if (in->supply_w[l] != in->w) {
      s->remote_cnt++;
      remote++;
    }
    struct order_line *ol = ptm_malloc(sizeof *ol);
    if (!ol)
      return -1;
    ol->i_id = in->i_id[l];
    ol->supply_w_id = in->supply_w[l];
    ol->quantity = q;
    ol->amount = q * it->price;
    ol->delivery_d = 0;
    for (int j = 0; j < 3; j++)
      ol->dist_info[j] = s->dist[in->d][j];
    if (tpcc_index_put(ix[ORDER_LINE], olkey(in->w, in->d, o_id, l + 1), ol) !=
        1)
      return -1;
    total += ol->amount;
    quantity += q;
  }
  /* total * (1 - c_discount) * (1 + w_tax + d_tax), basis points */
  total =
      total * (10000 - c->discount) / 10000 * (10000 + w->tax + d->tax) / 10000;
  slot->v[SLOT_ORDERS]++;
  slot->v[SLOT_LINES] += (uint64_t)in->ol_cnt;
  slot->v[SLOT_QUANTITY] += (uint64_t)quantity;
  slot->v[SLOT_REMOTE] += (uint64_t)remote;
  slot->v[SLOT_AMOUNT] += (uint64_t)total;
  return 1;
}

static void worker(bench_thread_t *t) {
  tx_slot_t *slot = &root->slots[tx_slot_index(t)];
  struct new_order_input in;
  while (bench_continue(t)) {
    new_order_input(t, &in);
    int done = 0;
    PTM_BEGIN();
    done = new_order(&in, slot);
    PTM_END();
    if (done == -1)
      tx_out_of_memory("tpcc");
    if (done != 1)
      missing_row();
    t->count[0] += in.ol_cnt;
    t->ops++;
  }
}

static int fail(const char *what, long w, long d, long o) {
  fprintf(stderr, "tpcc_%s: warehouse %ld district %ld order %ld: %s\n",
          tpcc_index_kind, w, d, o, what);
  return 0;
}

static int validate(void) {
  tpcc_index_t *const *ix = root->index;
  char who[32];
  snprintf(who, sizeof who, "tpcc_%s", tpcc_index_kind);
  long rows[TABLES];
  for (int i = 0; i < TABLES; i++)
    if ((rows[i] = tpcc_index_check(ix[i], who)) < 0)
      return fail(table_name[i], -1, -1, -1);
  long orders = 0, lines = 0, quantity = 0;
  for (long w = 0; w < warehouses; w++)
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
  for (long w = 0; w < warehouses; w++)
    for (long i = 0; i < items; i++) {
      const struct stock *s = tpcc_index_get(ix[STOCK], skey(w, i));
      if (s->quantity < 10 || s->quantity > 100)
        return fail("s_quantity out of 10..100", w, -1, -1);
      stock_ytd += s->ytd;
      stock_orders += s->order_cnt;
      stock_remote += s->remote_cnt;
    }
  const tx_slot_t *s = root->slots;
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
  printf("%s: %ld orders, %ld order lines (%ld remote), quantity %ld\n", who,
         orders, lines, stock_remote, quantity);
  return 1;
}

int main(int argc, char **argv) {
  char name[32];
  snprintf(name, sizeof name, "tpcc_%s", tpcc_index_kind);
  bench_parse(argc, argv, name, "w:i:c:",
              " [-w WAREHOUSES] [-i ITEMS] [-c CUSTOMERS_PER_DISTRICT]",
              tpcc_option);
  root = bench_root(name, sizeof *root);
  bench_thread_t setup = bench_setup_thread();
  nurand_c = bench_rand_below(&setup, 1024);
  load();

  bench_run(worker);

  return bench_finish(name, validate());
}
