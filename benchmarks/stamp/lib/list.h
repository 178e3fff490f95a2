/*
 * list.h - a sorted singly linked list of pointers (STAMP's list_t): the
 * comparator orders the elements (NULL: by pointer value), duplicates are
 * refused. Nodes come from TM_MALLOC, so a list may be shared and used
 * inside transactions.
 */
#ifndef STAMP_LIST_H
#define STAMP_LIST_H

#include "types.h"

typedef struct list_node {
  void *data;
  struct list_node *next;
} list_node_t;

typedef list_node_t *list_iter_t;

typedef struct list {
  list_node_t head; /* sentinel: head.next is the first element */
  stamp_cmp_t cmp;
  long size;
} list_t;

list_t *list_alloc(stamp_cmp_t cmp);
void list_free(list_t *list); /* the nodes, not the data */
bool_t list_isEmpty(list_t *list);
long list_getSize(list_t *list);
/* The element equal to DATA (per the comparator), or NULL. */
void *list_find(list_t *list, void *data);
bool_t list_insert(list_t *list, void *data); /* FALSE if present */
bool_t list_remove(list_t *list, void *data); /* FALSE if absent */
void list_clear(list_t *list);

void list_iter_reset(list_iter_t *it, list_t *list);
bool_t list_iter_hasNext(list_iter_t *it);
void *list_iter_next(list_iter_t *it);

#endif /* STAMP_LIST_H */
