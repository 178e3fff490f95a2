/*
 * list_persistent.c: list_plain.c's list kept in a ptm pool, so that it
 * outlives the program, a kill -9 and (in the file and pmem persistence
 * domains) a power cut. docs/getting-started.md walks through it.
 *
 *   list_persistent POOL push VALUE...  push each VALUE in its own transaction
 *   list_persistent POOL pop            remove the front value
 *   list_persistent POOL print          print the values, front first
 *   list_persistent POOL check          check the list, print a summary
 *   list_persistent POOL fill N         push N consecutive numbers after the
 *                                       front one (1 on an empty list),
 *                                       printing "committed V" after each
 *
 * POOL is created (64 MiB) if it does not exist.
 */
#include <ptm.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct node {
  long value;
  struct node *next;
};

/* The root object: the one place in the pool the program finds by itself.
 * ptm_root creates it zeroed, which is an empty list. */
struct list {
  struct node *head;
  long length;
};

/* Adds VALUE at the front. Returns 0, or -1 when the pool is full. */
static int push(struct list *l, long value) {
  int full = 0;
  PTM_BEGIN();
  struct node *n = ptm_malloc(sizeof *n);
  if (n) {
    n->value = value;
    n->next = l->head;
    l->head = n;
    l->length++;
  } else {
    full = 1;
  }
  PTM_END();
  return full ? -1 : 0;
}

/* Removes the front node into *VALUE. Returns 0, or -1 if the list is empty.
 */
static int pop(struct list *l, long *value) {
  int found = 0;
  PTM_BEGIN();
  struct node *n = l->head;
  if (n) {
    *value = n->value;
    l->head = n->next;
    l->length--;
    ptm_free(n);
    found = 1;
  }
  PTM_END();
  return found ? 0 : -1;
}

static void print(const struct list *l) {
  printf("list:");
  for (const struct node *n = l->head; n; n = n->next)
    printf(" %ld", n->value);
  printf(" (%ld items)\n", l->length);
}

/* The list is intact if it has as many nodes as its length says. Lists made
 * by `fill` also count down by one from the front. */
static int check(const struct list *l) {
  long nodes = 0, steps_of_one = 0;
  for (const struct node *n = l->head; n; n = n->next) {
    nodes++;
    if (n->next && n->next->value == n->value - 1)
      steps_of_one++;
  }
  if (nodes != l->length) {
    printf("check: BROKEN: %ld nodes, the length says %ld\n", nodes, l->length);
    return 1;
  }
  printf("check: OK: %ld items, front %ld, %s\n", nodes,
         l->head ? l->head->value : 0L,
         nodes > 0 && steps_of_one == nodes - 1 ? "counting down by one"
                                                : "not a count");
  return 0;
}

static int usage(void) {
  fprintf(stderr, "usage: list_persistent POOL push VALUE... | pop | print | "
                  "check | fill N\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return usage();
  const char *path = argv[1], *cmd = argv[2];

  /* Open the pool, creating it on the first run. Opening runs recovery:
   * a transaction that a crash interrupted is undone here. */
  size_t size = access(path, F_OK) == 0 ? 0 : (size_t)64 << 20;
  int rc = ptm_open(path, size);
  if (rc != 0) {
    fprintf(stderr, "list_persistent: cannot open %s: %s\n", path,
            strerror(-rc));
    return 1;
  }
  struct list *l = ptm_root(sizeof *l);
  if (!l) {
    fprintf(stderr, "list_persistent: no root object\n");
    return 1;
  }

  int status = 0;
  if (!strcmp(cmd, "push") && argc > 3) {
    for (int i = 3; i < argc && status == 0; i++)
      if (push(l, strtol(argv[i], NULL, 10)) != 0) {
        fprintf(stderr, "list_persistent: the pool is full\n");
        status = 1;
      }
  } else if (!strcmp(cmd, "pop") && argc == 3) {
    long v;
    if (pop(l, &v) == 0)
      printf("popped %ld\n", v);
    else
      printf("the list is empty\n");
  } else if (!strcmp(cmd, "print") && argc == 3) {
    print(l);
  } else if (!strcmp(cmd, "check") && argc == 3) {
    status = check(l);
  } else if (!strcmp(cmd, "fill") && argc == 4) {
    long n = strtol(argv[3], NULL, 10);
    long next = l->head ? l->head->value + 1 : 1;
    for (long i = 0; i < n; i++, next++) {
      if (push(l, next) != 0) {
        fprintf(stderr, "list_persistent: the pool is full\n");
        status = 1;
        break;
      }
      /* PTM_END has returned: the push is durable, so say so. */
      printf("committed %ld\n", next);
      fflush(stdout);
    }
  } else {
    status = usage();
  }
  ptm_close();
  return status;
}
