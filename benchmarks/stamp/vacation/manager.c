/* vacation's database: see manager.h. */
#include "manager.h"

#include <stdio.h>

#include "tm.h"

manager_t *manager_alloc(void) {
  manager_t *m = TM_MALLOC(sizeof *m);
  if (!m)
    return NULL;
  for (int t = 0; t < NUM_RESERVATION_TYPE; t++)
    if (!(m->tables[t] = MAP_ALLOC(NULL, NULL)))
      return NULL;
  if (!(m->customerTable = MAP_ALLOC(NULL, NULL)))
    return NULL;
  return m;
}

bool_t manager_addItem(manager_t *m, reservation_type_t type, long id, long num,
                       long price) {
  map_t *table = m->tables[type];
  reservation_t *r = MAP_FIND(table, id);
  if (!r) {
    if (num < 1 || price < 0)
      return FALSE;
    r = reservation_alloc(id, num, price);
    if (!r)
      return FALSE;
    if (!MAP_INSERT(table, id, r)) {
      reservation_free(r);
      return FALSE;
    }
    return TRUE;
  }
  if (!reservation_addToTotal(r, num))
    return FALSE;
  if (r->numTotal == 0) {
    MAP_REMOVE(table, id);
    reservation_free(r);
  } else if (price >= 0) {
    reservation_updatePrice(r, price);
  }
  return TRUE;
}

bool_t manager_deleteItem(manager_t *m, reservation_type_t type, long id,
                          long num) {
  return manager_addItem(m, type, id, -num, -1);
}

long manager_queryFree(manager_t *m, reservation_type_t type, long id) {
  reservation_t *r = MAP_FIND(m->tables[type], id);
  return r ? r->numFree : -1;
}

long manager_queryPrice(manager_t *m, reservation_type_t type, long id) {
  reservation_t *r = MAP_FIND(m->tables[type], id);
  return r ? r->price : -1;
}

bool_t manager_addCustomer(manager_t *m, long customerId) {
  if (MAP_CONTAINS(m->customerTable, customerId))
    return FALSE;
  customer_t *c = customer_alloc(customerId);
  if (!c)
    return FALSE;
  if (!MAP_INSERT(m->customerTable, customerId, c)) {
    customer_free(c);
    return FALSE;
  }
  return TRUE;
}

bool_t manager_deleteCustomer(manager_t *m, long customerId) {
  customer_t *c = MAP_FIND(m->customerTable, customerId);
  if (!c)
    return FALSE;
  list_iter_t it;
  list_iter_reset(&it, c->reservationInfoList);
  while (list_iter_hasNext(&it)) {
    reservation_info_t *info = list_iter_next(&it);
    reservation_t *r = MAP_FIND(m->tables[info->type], info->id);
    /* An item with reservations is never removed: a missing one is a bug
     * of the TM, which the final check reports. */
    if (r)
      reservation_cancel(r);
  }
  MAP_REMOVE(m->customerTable, customerId);
  customer_free(c);
  return TRUE;
}

long manager_queryCustomerBill(manager_t *m, long customerId) {
  customer_t *c = MAP_FIND(m->customerTable, customerId);
  return c ? customer_getBill(c) : -1;
}

bool_t manager_reserve(manager_t *m, reservation_type_t type, long customerId,
                       long id) {
  customer_t *c = MAP_FIND(m->customerTable, customerId);
  reservation_t *r = MAP_FIND(m->tables[type], id);
  if (!c || !r)
    return FALSE;
  reservation_info_t key = {type, id, 0};
  if (list_find(c->reservationInfoList, &key))
    return FALSE;
  if (!reservation_make(r))
    return FALSE;
  if (!customer_addReservationInfo(c, type, id, r->price)) {
    reservation_cancel(r);
    return FALSE;
  }
  return TRUE;
}

static const char *type_name[NUM_RESERVATION_TYPE] = {"car", "flight", "room"};

bool_t manager_check(manager_t *m) {
  bool_t ok = TRUE;
  if (rbtree_verify(m->customerTable) < 0)
    return FALSE;
  for (int t = 0; t < NUM_RESERVATION_TYPE; t++) {
    if (rbtree_verify(m->tables[t]) < 0)
      return FALSE;
    for (rbtree_node_t *n = rbtree_first(m->tables[t]); n; n = rbtree_next(n)) {
      reservation_t *r = n->data;
      if (r->id != (long)n->key || !reservation_isValid(r) ||
          r->numTotal == 0) {
        fprintf(
            stderr, "vacation: %s %ld: used %ld free %ld total %ld price %ld\n",
            type_name[t], r->id, r->numUsed, r->numFree, r->numTotal, r->price);
        ok = FALSE;
      }
    }
  }
  /* Each held reservation is one used unit of an existing item: count the
   * holders per item, then compare with numUsed. */
  map_t *held[NUM_RESERVATION_TYPE];
  for (int t = 0; t < NUM_RESERVATION_TYPE; t++)
    held[t] = rbtree_alloc(NULL);
  for (rbtree_node_t *n = rbtree_first(m->customerTable); n;
       n = rbtree_next(n)) {
    customer_t *c = n->data;
    if (c->id != (long)n->key) {
      fprintf(stderr, "vacation: customer %ld filed under %ld\n", c->id,
              (long)n->key);
      ok = FALSE;
    }
    list_iter_t it;
    list_iter_reset(&it, c->reservationInfoList);
    long count = 0;
    reservation_info_t *prev = NULL;
    while (list_iter_hasNext(&it)) {
      reservation_info_t *info = list_iter_next(&it);
      count++;
      if (prev && reservation_info_compare(prev, info) >= 0) {
        fprintf(stderr, "vacation: customer %ld: reservations out of order\n",
                c->id);
        ok = FALSE;
      }
      prev = info;
      if (info->type < 0 || info->type >= NUM_RESERVATION_TYPE) {
        ok = FALSE;
        continue;
      }
      long k = (long)rbtree_get(held[info->type], (void *)info->id);
      rbtree_update(held[info->type], (void *)info->id, (void *)(k + 1));
    }
    if (count != list_getSize(c->reservationInfoList)) {
      fprintf(stderr, "vacation: customer %ld: list size %ld, %ld nodes\n",
              c->id, list_getSize(c->reservationInfoList), count);
      ok = FALSE;
    }
  }
  for (int t = 0; t < NUM_RESERVATION_TYPE; t++) {
    for (rbtree_node_t *n = rbtree_first(m->tables[t]); n; n = rbtree_next(n)) {
      reservation_t *r = n->data;
      long k = (long)rbtree_get(held[t], (void *)r->id);
      if (k != r->numUsed) {
        fprintf(stderr, "vacation: %s %ld: %ld used, %ld customers hold it\n",
                type_name[t], r->id, r->numUsed, k);
        ok = FALSE;
      }
      if (k)
        rbtree_delete(held[t], (void *)r->id);
    }
    if (rbtree_getSize(held[t]) != 0) {
      fprintf(stderr,
              "vacation: %ld %s reservations of items that do not exist\n",
              rbtree_getSize(held[t]), type_name[t]);
      ok = FALSE;
    }
    rbtree_free(held[t]);
  }
  return ok;
}
