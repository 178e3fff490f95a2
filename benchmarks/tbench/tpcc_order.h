/*
 * tpcc_order.h - the body of TPC-C's New Order transaction, for tpcc.c
 * (ptm) and the PMDK peer (benchmarks/peers/tpcc_pmdk.c): it runs inside
 * the caller's transaction, so each program compiles its own copy. The
 * includer defines first:
 *
 *   TPCC_ALLOC(bytes)         a new block of the pool, allocated by the
 *                             transaction (NULL when there is none);
 *   TPCC_CHANGING(p, bytes)   called before an existing row's bytes
 *                             [p, p + bytes) are first changed: nothing for
 *                             ptm, whose writes are instrumented; the
 *                             snapshot for libpmemobj.
 */
#ifndef PTM_TBENCH_TPCC_ORDER_H
#define PTM_TBENCH_TPCC_ORDER_H

#include "tpcc_index.h"
#include "tpcc_schema.h"
#include "tx_slots.h"

#if !defined(TPCC_ALLOC) || !defined(TPCC_CHANGING)
#error "define TPCC_ALLOC and TPCC_CHANGING before including tpcc_order.h"
#endif

/* tpcc_index_put's result as tpcc_new_order's. */
static inline int tpcc_put_failed(int put) {
  return put < 0 ? TPCC_NO_MEMORY : TPCC_DUPLICATE_KEY;
}

/* The New Order of IN, on the tables of IX, tallied in SLOT: 1, or a
 * failure (TPCC_NO_MEMORY, TPCC_MISSING_ROW, TPCC_DUPLICATE_KEY). */
static int tpcc_new_order(tpcc_index_t *const *ix,
                          const struct new_order_input *in, tx_slot_t *slot) {
  struct warehouse *w = tpcc_index_get(ix[WAREHOUSE], (uint64_t)in->w);
  struct district *d = tpcc_index_get(ix[DISTRICT], dkey(in->w, in->d));
  struct customer *c = tpcc_index_get(ix[CUSTOMER], ckey(in->w, in->d, in->c));
  if (!w || !d || !c)
    return TPCC_MISSING_ROW;
  long o_id = d->next_o_id;
  TPCC_CHANGING(&d->next_o_id, sizeof d->next_o_id);
  d->next_o_id = o_id + 1;
  struct order *o = TPCC_ALLOC(sizeof *o);
  struct new_order *no = TPCC_ALLOC(sizeof *no);
  if (!o || !no)
    return TPCC_NO_MEMORY;
  o->c_id = in->c;
  o->entry_d = in->now;
  o->carrier_id = 0;
  o->ol_cnt = in->ol_cnt;
  o->all_local = in->all_local;
  no->o_id = o_id;
  int put = tpcc_index_put(ix[ORDER], okey(in->w, in->d, o_id), o);
  if (put == 1)
    put = tpcc_index_put(ix[NEW_ORDER], okey(in->w, in->d, o_id), no);
  if (put != 1)
    return tpcc_put_failed(put);
  long total = 0, quantity = 0, remote = 0;
  for (long l = 0; l < in->ol_cnt; l++) {
    struct item *it = tpcc_index_get(ix[ITEM], (uint64_t)in->i_id[l]);
    struct stock *s =
        tpcc_index_get(ix[STOCK], skey(in->supply_w[l], in->i_id[l]));
    if (!it || !s)
      return TPCC_MISSING_ROW;
    long q = in->qty[l];
    /* quantity, ytd, order_cnt, remote_cnt: the row's first four words */
    TPCC_CHANGING(s, 4 * sizeof(long));
    s->quantity =
        s->quantity >= q + 10 ? s->quantity - q : s->quantity - q + 91;
    s->ytd += q;
    s->order_cnt++;
    if (in->supply_w[l] != in->w) {
      s->remote_cnt++;
      remote++;
    }
    struct order_line *ol = TPCC_ALLOC(sizeof *ol);
    if (!ol)
      return TPCC_NO_MEMORY;
    ol->i_id = in->i_id[l];
    ol->supply_w_id = in->supply_w[l];
    ol->quantity = q;
    ol->amount = q * it->price;
    ol->delivery_d = 0;
    for (int j = 0; j < 3; j++)
      ol->dist_info[j] = s->dist[in->d][j];
    put = tpcc_index_put(ix[ORDER_LINE], olkey(in->w, in->d, o_id, l + 1), ol);
    if (put != 1)
      return tpcc_put_failed(put);
    total += ol->amount;
    quantity += q;
  }
  /* total * (1 - c_discount) * (1 + w_tax + d_tax), basis points */
  total =
      total * (10000 - c->discount) / 10000 * (10000 + w->tax + d->tax) / 10000;
  TPCC_CHANGING(slot, sizeof *slot);
  slot->v[SLOT_ORDERS]++;
  slot->v[SLOT_LINES] += (uint64_t)in->ol_cnt;
  slot->v[SLOT_QUANTITY] += (uint64_t)quantity;
  slot->v[SLOT_REMOTE] += (uint64_t)remote;
  slot->v[SLOT_AMOUNT] += (uint64_t)total;
  return 1;
}

#endif /* PTM_TBENCH_TPCC_ORDER_H */
