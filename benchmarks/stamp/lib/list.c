/* The sorted list: see list.h. */
#include "list.h"

#include "tm.h"

static long compare(list_t *list, const void *a, const void *b) {
  if (list->cmp)
    return list->cmp(a, b);
  return a < b ? -1 : a > b ? 1 : 0;
}

list_t *list_alloc(stamp_cmp_t cmp) {
  list_t *list = TM_MALLOC(sizeof *list);
  if (!list)
    return NULL;
  list->head.data = NULL;
  list->head.next = NULL;
  list->cmp = cmp;
  list->size = 0;
  return list;
}

void list_free(list_t *list) {
  list_clear(list);
  TM_FREE(list);
}

bool_t list_isEmpty(list_t *list) { return list->head.next == NULL; }
long list_getSize(list_t *list) { return list->size; }

/* The last node whose element is smaller than DATA (the sentinel if none). */
static list_node_t *find_previous(list_t *list, void *data) {
  list_node_t *prev = &list->head;
  for (list_node_t *n = prev->next; n; n = n->next) {
    if (compare(list, n->data, data) >= 0)
      break;
    prev = n;
  }
  return prev;
}

void *list_find(list_t *list, void *data) {
  list_node_t *n = find_previous(list, data)->next;
  if (n && compare(list, n->data, data) == 0)
    return n->data;
  return NULL;
}

bool_t list_insert(list_t *list, void *data) {
  list_node_t *prev = find_previous(list, data);
  list_node_t *cur = prev->next;
  if (cur && compare(list, cur->data, data) == 0)
    return FALSE;
  list_node_t *n = TM_MALLOC(sizeof *n);
  if (!n)
    return FALSE;
  n->data = data;
  n->next = cur;
  prev->next = n;
  list->size++;
  return TRUE;
}

bool_t list_remove(list_t *list, void *data) {
  list_node_t *prev = find_previous(list, data);
  list_node_t *cur = prev->next;
  if (!cur || compare(list, cur->data, data) != 0)
    return FALSE;
  prev->next = cur->next;
  TM_FREE(cur);
  list->size--;
  return TRUE;
}

void list_clear(list_t *list) {
  list_node_t *n = list->head.next;
  while (n) {
    list_node_t *next = n->next;
    TM_FREE(n);
    n = next;
  }
  list->head.next = NULL;
  list->size = 0;
}

void list_iter_reset(list_iter_t *it, list_t *list) { *it = &list->head; }
bool_t list_iter_hasNext(list_iter_t *it) { return (*it)->next != NULL; }

void *list_iter_next(list_iter_t *it) {
  *it = (*it)->next;
  return (*it)->data;
}
