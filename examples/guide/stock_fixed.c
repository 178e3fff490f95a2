/*
 * stock_fixed.c: stock.c after the port (docs/porting.md). The name is
 * compared by a function of the program, which the plugin makes
 * transactional, instead of strcasecmp from libc, which has no
 * transactional version; the message is printed after PTM_END(), once the
 * sale has committed, instead of inside the transaction.
 *
 *   stock_fixed
 */
#include <ptm.h>

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>

struct item {
  char name[16];
  long count;
};

static struct item stock[] = {{"apple", 1000}, {"pear", 1000}, {"plum", 1000}};
enum { NITEMS = sizeof stock / sizeof stock[0], SALES = 2000 };
static long sold;

/* strcasecmp's answer to "equal?", compiled with the plugin. */
static int same_name(const char *a, const char *b) {
  for (; *a && tolower((unsigned char)*a) == tolower((unsigned char)*b);
       a++, b++)
    ;
  return tolower((unsigned char)*a) == tolower((unsigned char)*b);
}

/* Sells one NAME (any case) if there is one left. */
static void sell(const char *name) {
  int sold_out = -1; /* a local: rolled back with the transaction */
  PTM_BEGIN();
  for (int i = 0; i < NITEMS; i++)
    if (same_name(stock[i].name, name) && stock[i].count > 0) {
      stock[i].count--;
      sold++;
      if (stock[i].count == 0)
        sold_out = i;
    }
  PTM_END();
  if (sold_out >= 0)
    printf("%s: sold out\n", stock[sold_out].name);
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
