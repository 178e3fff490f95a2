/*
 * list.c - crash workload: a sorted persistent linked list of keys 0..31.
 * Operation i toggles key k(i): inserts a new node (ptm_malloc) if absent,
 * unlinks and frees it if present. Invariants: the list is acyclic and
 * strictly increasing, holds exactly the keys (and inserting operations) of
 * the first `done` operations of the commit order, and the heap holds
 * exactly its nodes (no leaked or doubly used block).
 */
#include "workload.h"

#include <ptm.h>
#include <stdio.h>

#define LIST_KEYS 32

struct list_node {
  uint64_t key;
  uint64_t stamp; /* the operation that inserted it */
  struct list_node *next;
};

struct list_root {
  uint64_t done;
  struct list_node *head;
};

static void list_init(void *p, uint64_t seed) { (void)p, (void)seed; }

static uint64_t list_op(void *p, uint64_t i, uint64_t seed) {
  struct list_root *r = p;
  uint64_t key = op_rand(seed, i, 0) % LIST_KEYS;
  uint64_t position = 0;
  PTM_BEGIN();
  struct list_node **link = &r->head;
  while (*link && (*link)->key < key)
    link = &(*link)->next;
  struct list_node *cur = *link;
  if (cur && cur->key == key) {
    *link = cur->next;
    ptm_free(cur);
  } else {
    struct list_node *n = ptm_malloc(sizeof *n);
    if (!n)
      workload_out_of_memory("list node");
    n->key = key;
    n->stamp = i;
    n->next = cur;
    *link = n;
  }
  position = r->done;
  r->done = position + 1;
  PTM_END();
  return position;
}

/* Stamp of each present key after the operations ORDER[0..DONE-1]
 * (UINT64_MAX: absent). */
static void list_model(const uint64_t *order, uint64_t done, uint64_t seed,
                       uint64_t *stamp) {
  for (int k = 0; k < LIST_KEYS; k++)
    stamp[k] = UINT64_MAX;
  for (uint64_t j = 0; j < done; j++) {
    uint64_t i = order[j];
    uint64_t key = op_rand(seed, i, 0) % LIST_KEYS;
    stamp[key] = stamp[key] == UINT64_MAX ? i : UINT64_MAX;
  }
}

static int list_check(const void *p, const uint64_t *order, uint64_t done,
                      uint64_t seed, char *why, size_t n) {
  const struct list_root *r = p;
  uint64_t stamp[LIST_KEYS];
  list_model(order, done, seed, stamp);
  int steps = 0;
  uint64_t prev = 0;
  int first = 1;
  int seen[LIST_KEYS] = {0};
  for (const struct list_node *c = r->head; c; c = c->next) {
    if (++steps > LIST_KEYS) {
      snprintf(why, n, "list: more than %d nodes (a cycle?)", LIST_KEYS);
      return 1;
    }
    if (c->key >= LIST_KEYS || (!first && c->key <= prev)) {
      snprintf(why, n, "list: node %d has key %llu after %llu (not sorted)",
               steps, (unsigned long long)c->key, (unsigned long long)prev);
      return 1;
    }
    if (stamp[c->key] != c->stamp) {
      snprintf(why, n,
               "list: key %llu inserted by operation %llu is present, the "
               "first %llu operations leave %s",
               (unsigned long long)c->key, (unsigned long long)c->stamp,
               (unsigned long long)done,
               stamp[c->key] == UINT64_MAX ? "it absent" : "another node");
      return 1;
    }
    seen[c->key] = 1;
    prev = c->key;
    first = 0;
  }
  for (int k = 0; k < LIST_KEYS; k++)
    if (stamp[k] != UINT64_MAX && !seen[k]) {
      snprintf(why, n,
               "list: key %d is missing (inserted by operation %llu of the "
               "first %llu)",
               k, (unsigned long long)stamp[k], (unsigned long long)done);
      return 1;
    }
  return 0;
}

static long list_blocks(const void *p) {
  long blocks = 1;
  for (const struct list_node *c = ((const struct list_root *)p)->head; c;
       c = c->next)
    blocks++;
  return blocks;
}

const struct workload list_workload = {"list",     sizeof(struct list_root),
                                       list_init,  list_op,
                                       list_check, list_blocks,
                                       0,          NULL};
