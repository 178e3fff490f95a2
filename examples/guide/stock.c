/*
 * stock.c: a shop's stock, shared by two sales threads. It used to take a
 * pthread mutex around each sale; the port to ptm replaced the lock and the
 * unlock with PTM_BEGIN() and PTM_END(). Two things in the critical section
 * cannot run inside a transaction: docs/porting.md finds them, and
 * stock_fixed.c is the program after the fixes.
 *
 *   stock
 */
#include <ptm.h>

#include <pthread.h>
#include <stdio.h>
#include <strings.h>

struct item {
  char name[16];
  long count;
};

static struct item stock[] = {{"apple", 1000}, {"pear", 1000}, {"plum", 1000}};
enum { NITEMS = sizeof stock / sizeof stock[0], SALES = 2000 };
static long sold;

/* Sells one NAME (any case) if there is one left. */
static void sell(const char *name) {
  PTM_BEGIN(); /* was pthread_mutex_lock(&stock_lock) */
  for (int i = 0; i < NITEMS; i++)
    if (strcasecmp(stock[i].name, name) == 0 && stock[i].count > 0) {
      stock[i].count--;
      sold++;
      if (stock[i].count == 0)
        printf("%s: sold out\n", stock[i].name);
    }
  PTM_END(); /* was pthread_mutex_unlock(&stock_lock) */
}

static void *seller(void *arg) {
  static const char *const wanted[] = {"Apple", "PEAR", "plum"};
  long first = (long)arg;
  for (long i = 0; i < SALES; i++)
    sell(wanted[(first + i) % NITEMS]);
  return NULL;
}

int main(void) {
  pthread_t t[2];
  for (long i = 0; i < 2; i++)
    pthread_create(&t[i], NULL, seller, (void *)i);
  for (int i = 0; i < 2; i++)
    pthread_join(t[i], NULL);
  long left = 0;
  for (int i = 0; i < NITEMS; i++)
    left += stock[i].count;
  printf("stock: %ld sold, %ld left, %s\n", sold, left,
         sold + left == 3000 ? "OK" : "WRONG");
  return sold + left == 3000 ? 0 : 1;
}
