/*
 * client.h - a vacation client: a thread running its share of the
 * transactions, each one of STAMP's three actions (make a reservation,
 * delete a customer, update the tables) as one atomic block.
 */
#ifndef VACATION_CLIENT_H
#define VACATION_CLIENT_H

#include "manager.h"
#include "random.h"

typedef struct client {
  long id;
  manager_t *manager;
  random_t *random;
  long numOperation; /* transactions to run */
  long numQueryPerTransaction;
  long queryRange;                  /* ids drawn from [1, queryRange] */
  long percentUser;                 /* percentage of reservation actions */
  long *types, *ids, *ops, *prices; /* per-action scratch */
} client_t;

client_t *client_alloc(long id, manager_t *m, long numOperation,
                       long numQueryPerTransaction, long queryRange,
                       long percentUser);
void client_free(client_t *c);
/* thread_start() body: ARG is the array of clients, indexed by thread id. */
void client_run(void *arg);

#endif /* VACATION_CLIENT_H */
