/* vacation clients: see client.h. */
#include "client.h"

#include <stdlib.h>

#include "tm.h"

client_t *client_alloc(long id, manager_t *m, long numOperation,
                       long numQueryPerTransaction, long queryRange,
                       long percentUser) {
  client_t *c = SEQ_MALLOC(sizeof *c);
  if (!c)
    return NULL;
  c->id = id;
  c->manager = m;
  c->random = random_alloc();
  random_seed(c->random, (unsigned long)id);
  c->numOperation = numOperation;
  c->numQueryPerTransaction = numQueryPerTransaction;
  c->queryRange = queryRange;
  c->percentUser = percentUser;
  size_t n = (size_t)numQueryPerTransaction;
  c->types = SEQ_MALLOC(n * sizeof(long));
  c->ids = SEQ_MALLOC(n * sizeof(long));
  c->ops = SEQ_MALLOC(n * sizeof(long));
  c->prices = SEQ_MALLOC(n * sizeof(long));
  if (!c->random || !c->types || !c->ids || !c->ops || !c->prices)
    return NULL;
  return c;
}

void client_free(client_t *c) {
  random_free(c->random);
  SEQ_FREE(c->types);
  SEQ_FREE(c->ids);
  SEQ_FREE(c->ops);
  SEQ_FREE(c->prices);
  SEQ_FREE(c);
}

static long draw(client_t *c, long n) {
  return (long)(random_generate(c->random) % (unsigned long)n);
}

/* Queries up to numQueryPerTransaction random items and reserves, for the
 * customer, the most expensive one found of each type. */
static void make_reservation(client_t *c) {
  manager_t *m = c->manager;
  long numQuery = draw(c, c->numQueryPerTransaction) + 1;
  long customerId = draw(c, c->queryRange) + 1;
  for (long i = 0; i < numQuery; i++) {
    c->types[i] = draw(c, NUM_RESERVATION_TYPE);
    c->ids[i] = draw(c, c->queryRange) + 1;
  }
  TM_BEGIN();
  long maxPrices[NUM_RESERVATION_TYPE] = {-1, -1, -1};
  long maxIds[NUM_RESERVATION_TYPE] = {-1, -1, -1};
  bool_t found = FALSE;
  for (long i = 0; i < numQuery; i++) {
    reservation_type_t t = (reservation_type_t)c->types[i];
    long id = c->ids[i];
    if (manager_queryFree(m, t, id) > 0) {
      long price = manager_queryPrice(m, t, id);
      if (price > maxPrices[t]) {
        maxPrices[t] = price;
        maxIds[t] = id;
        found = TRUE;
      }
    }
  }
  if (found) {
    manager_addCustomer(m, customerId);
    for (int t = 0; t < NUM_RESERVATION_TYPE; t++)
      if (maxIds[t] > 0)
        manager_reserve(m, (reservation_type_t)t, customerId, maxIds[t]);
  }
  TM_END();
}

static void delete_customer(client_t *c) {
  manager_t *m = c->manager;
  long customerId = draw(c, c->queryRange) + 1;
  TM_BEGIN();
  long bill = manager_queryCustomerBill(m, customerId);
  if (bill >= 0)
    manager_deleteCustomer(m, customerId);
  TM_END();
}

/* Adds units to, or removes units from, up to numQueryPerTransaction random
 * items. */
static void update_tables(client_t *c) {
  manager_t *m = c->manager;
  long numUpdate = draw(c, c->numQueryPerTransaction) + 1;
  for (long i = 0; i < numUpdate; i++) {
    c->types[i] = draw(c, NUM_RESERVATION_TYPE);
    c->ids[i] = draw(c, c->queryRange) + 1;
    c->ops[i] = draw(c, 2);
    if (c->ops[i])
      c->prices[i] = draw(c, 5) * 10 + 50;
  }
  TM_BEGIN();
  for (long i = 0; i < numUpdate; i++) {
    reservation_type_t t = (reservation_type_t)c->types[i];
    if (c->ops[i])
      manager_addItem(m, t, c->ids[i], 100, c->prices[i]);
    else
      manager_deleteItem(m, t, c->ids[i], 100);
  }
  TM_END();
}

void client_run(void *arg) {
  client_t *c = ((client_t **)arg)[thread_getId()];
  for (long i = 0; i < c->numOperation; i++) {
    long r = draw(c, 100);
    if (r < c->percentUser)
      make_reservation(c);
    else if (r & 1)
      delete_customer(c);
    else
      update_tables(c);
  }
}
