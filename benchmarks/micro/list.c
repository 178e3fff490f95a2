/*
 * list: a set of integer keys in a sorted singly linked list, nodes allocated
 * with ptm_malloc inside the inserting transaction and freed with ptm_free
 * inside the removing one. Every operation walks the list from the head, so
 * transactions read O(KEY_RANGE) locations: the benchmark stresses read-set
 * tracking and validation. UPDATE_PERCENT of the operations are updates (half
 * inserts, half removes), the rest lookups; the list starts half full.
 * Validation: strictly sorted, and size = initial + successful inserts -
 * successful removes.
 *
 *   list [common options]
 */
#include "bench.h"
#include "set_worker.h"
#include "sorted_chain.h"

#include <stdio.h>
#include <stdlib.h>

struct list_root {
  struct node *head;
};

static struct list_root *list;

static int list_contains(long key) { return chain_contains(&list->head, key); }
static int list_insert(long key) { return chain_insert(&list->head, key); }
static int list_remove(long key) { return chain_remove(&list->head, key); }

SET_BENCH_WORKER(worker, list_insert, list_remove, list_contains)

int main(int argc, char **argv) {
  bench.key_range = 512;
  bench.update = 20;
  bench_parse(argc, argv, "list", "", "", NULL);

  list = bench_root("list", sizeof *list);
  PTM_BEGIN();
  list->head = NULL;
  PTM_END();
  long initial = bench_fill(worker_insert);

  bench_run(worker);

  long size = 0;
  int ok = 1;
  for (struct node *n = list->head; n; n = n->next, size++)
    if (n->next && n->next->key <= n->key) {
      fprintf(stderr, "list: not sorted at key %ld\n", n->key);
      ok = 0;
    }
  return set_bench_finish("list", size, initial, ok, "");
}
