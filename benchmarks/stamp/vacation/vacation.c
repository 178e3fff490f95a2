/*
 * vacation (STAMP, Minh et al. IISWC 2008): an online travel reservation
 * system. A manager keeps red-black trees of cars, flights and rooms and of
 * customers with their reservations; client threads run sessions, each one
 * transaction: make a reservation (query several items, reserve the most
 * expensive of each type), delete a customer (cancelling its reservations),
 * or update the tables (add or remove items). At the end the tables must be
 * consistent: trees valid, every item's used + free = total, and every used
 * unit held by exactly one customer reservation.
 *
 *   vacation [-c CLIENTS] [-n QUERIES/TX] [-q %QUERIED] [-r RELATIONS]
 *            [-t TRANSACTIONS] [-u %USER] [-s SEED]
 *
 * low contention:  -n2 -q90 -u98 -r16384 -t4096   (larger: -r1048576 -t4194304)
 * high contention: -n4 -q60 -u90 -r16384 -t4096
 */
#include <stdio.h>
#include <stdlib.h>

#include "client.h"
#include "manager.h"
#include "options.h"
#include "stamp_result.h"
#include "tm.h"

static long numClient = 1, numQueryPerTransaction = 10, percentQuery = 90,
            numRelation = 1 << 16, numTransaction = 1 << 26, percentUser = 80;
static unsigned long seed = 0;

static void usage(void) {
  fprintf(
      stderr,
      "usage: vacation [-c CLIENTS] [-n QUERIES_PER_TX] [-q PERCENT_QUERIED]\n"
      "                [-r RELATIONS] [-t TRANSACTIONS] [-u PERCENT_USER] "
      "[-s SEED]\n"
      "  defaults: -c1 -n10 -q90 -r65536 -t67108864 -u80 -s0\n");
  exit(2);
}

static const stamp_option_t options[] = {
    {'c', STAMP_OPT_LONG, &numClient, 1, STAMP_MAX_THREADS},
    {'n', STAMP_OPT_LONG, &numQueryPerTransaction, 1, 1L << 20},
    {'q', STAMP_OPT_LONG, &percentQuery, 1, 100},
    {'r', STAMP_OPT_LONG, &numRelation, 1, 1L << 32},
    {'t', STAMP_OPT_LONG, &numTransaction, 1, 1L << 40},
    {'u', STAMP_OPT_LONG, &percentUser, 0, 100},
    {'s', STAMP_OPT_ULONG, &seed, 0, 1L << 32},
    {0, STAMP_OPT_FLAG, NULL, 0, 0}};

/* Every item id 1..numRelation of each type, in random order, with a random
 * capacity and price; and customers 1..numRelation. */
static manager_t *initialize(void) {
  manager_t *m = manager_alloc();
  random_t *r = random_alloc();
  long *ids = malloc((size_t)numRelation * sizeof *ids);
  if (!m || !r || !ids)
    return NULL;
  random_seed(r, seed);
  for (int t = 0; t < NUM_RESERVATION_TYPE; t++) {
    random_permutation(r, ids, numRelation, 1);
    for (long i = 0; i < numRelation; i++) {
      long num = (long)(random_generate(r) % 5 + 1) * 100;
      long price = (long)(random_generate(r) % 5) * 10 + 50;
      if (!manager_addItem(m, (reservation_type_t)t, ids[i], num, price))
        return NULL;
    }
  }
  for (long i = 1; i <= numRelation; i++)
    if (!manager_addCustomer(m, i))
      return NULL;
  free(ids);
  random_free(r);
  return m;
}

int main(int argc, char **argv) {
  stamp_parse_options(argc, argv, "vacation", options, usage);
  printf("vacation: clients %ld, queries/tx %ld, queried %ld%%, relations %ld, "
         "transactions %ld, user %ld%%\n",
         numClient, numQueryPerTransaction, percentQuery, numRelation,
         numTransaction, percentUser);
  manager_t *m = initialize();
  if (!m) {
    fprintf(stderr, "vacation: out of memory building the tables\n");
    return 1;
  }
  long queryRange =
      (long)((double)percentQuery / 100.0 * (double)numRelation + 0.5);
  if (queryRange < 1)
    queryRange = 1;
  long perClient = (long)((double)numTransaction / (double)numClient + 0.5);
  client_t **clients = malloc((size_t)numClient * sizeof *clients);
  for (long i = 0; i < numClient; i++)
    if (!clients || !(clients[i] = client_alloc(
                          i + (long)seed * STAMP_MAX_THREADS, m, perClient,
                          numQueryPerTransaction, queryRange, percentUser))) {
      fprintf(stderr, "vacation: out of memory\n");
      return 1;
    }
  stamp_result_run(numClient, client_run, clients);
  int ok = manager_check(m);
  for (long i = 0; i < numClient; i++)
    client_free(clients[i]);
  free(clients);
  return stamp_result_print("vacation", numClient, ok);
}
