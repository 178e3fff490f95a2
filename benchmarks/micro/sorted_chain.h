/*
 * sorted_chain.h - a chain of integer keys in increasing order, singly
 * linked: the whole set of the list benchmark and each bucket of the
 * hashset's. Lookup, insert (the node from ptm_malloc) and remove (the node
 * back with ptm_free) run inside the caller's transaction; each takes the
 * chain's head pointer. Static functions in a header: the plugin and gcc
 * -fgnu-tm instrument them in the unit of each benchmark, which uses all
 * three.
 */
#ifndef PTM_MICRO_SORTED_CHAIN_H
#define PTM_MICRO_SORTED_CHAIN_H

#include "bench.h"

struct node {
  long key;
  struct node *next;
};

/* The link where KEY is or belongs: the first whose node is not below it. */
static struct node **chain_find(struct node **head, long key) {
  struct node **prev = head;
  while (*prev && (*prev)->key < key)
    prev = &(*prev)->next;
  return prev;
}

static int chain_contains(struct node **head, long key) {
  struct node *n = *chain_find(head, key);
  return n && n->key == key;
}

/* 1 if KEY was inserted, 0 if present. */
static int chain_insert(struct node **head, long key) {
  struct node **prev = chain_find(head, key);
  if (*prev && (*prev)->key == key)
    return 0;
  struct node *n = ptm_malloc(sizeof *n);
  n->key = key;
  n->next = *prev;
  *prev = n;
  return 1;
}

/* 1 if KEY was removed, 0 if absent. */
static int chain_remove(struct node **head, long key) {
  struct node **prev = chain_find(head, key);
  struct node *n = *prev;
  if (!n || n->key != key)
    return 0;
  *prev = n->next;
  ptm_free(n);
  return 1;
}

#endif /* PTM_MICRO_SORTED_CHAIN_H */
