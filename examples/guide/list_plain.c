/*
 * list_plain.c: a singly linked list of numbers in ordinary memory, the
 * starting point of docs/getting-started.md. Everything is gone when the
 * program exits.
 *
 *   list_plain
 */
#include <stdio.h>
#include <stdlib.h>

struct node {
  long value;
  struct node *next;
};

struct list {
  struct node *head;
  long length;
};

/* Adds VALUE at the front. Returns 0, or -1 when memory is exhausted. */
static int push(struct list *l, long value) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    return -1;
  n->value = value;
  n->next = l->head;
  l->head = n;
  l->length++;
  return 0;
}

/* Removes the front node into *VALUE. Returns 0, or -1 if the list is empty.
 */
static int pop(struct list *l, long *value) {
  struct node *n = l->head;
  if (!n)
    return -1;
  *value = n->value;
  l->head = n->next;
  l->length--;
  free(n);
  return 0;
}

static void print(const struct list *l) {
  printf("list:");
  for (const struct node *n = l->head; n; n = n->next)
    printf(" %ld", n->value);
  printf(" (%ld items)\n", l->length);
}

int main(void) {
  struct list l = {NULL, 0};
  for (long v = 1; v <= 5; v++)
    if (push(&l, 10 * v) != 0) {
      fprintf(stderr, "list_plain: out of memory\n");
      return 1;
    }
  long v;
  if (pop(&l, &v) == 0)
    printf("popped %ld\n", v);
  print(&l);
  while (pop(&l, &v) == 0)
    ;
  return 0;
}
