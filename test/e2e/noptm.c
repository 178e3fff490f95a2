/* Code without transactions, compiled with the plugin, behaves the same and
 * links without any ptm library: exported functions, address-taken statics
 * and function pointers (all of which the plugin clones and registers),
 * allocation and string functions. Prints a transcript that the test compares
 * with the same program compiled without the plugin. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct item {
  char name[16];
  long weight;
};

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

static int by_weight(const void *a, const void *b) {
  const struct item *x = a, *y = b;
  return (x->weight > y->weight) - (x->weight < y->weight);
}

static long twice(long v) { return 2 * v; }
static long square(long v) { return v * v; }
long (*const transforms[])(long) = {twice, square};

int main(void) {
  size_t n = 200;
  struct item *items = calloc(n, sizeof *items);
  if (!items)
    return 1;
  uint64_t h = 1;
  for (size_t i = 0; i < n; i++) {
    h = mix(h, i);
    items[i].weight = (long)(h % 1000);
    snprintf(items[i].name, sizeof items[i].name, "item%zu", i);
  }
  qsort(items, n, sizeof *items, by_weight);
  int sorted = 1;
  for (size_t i = 1; i < n; i++)
    sorted &= items[i - 1].weight <= items[i].weight;
  long acc = 0;
  for (size_t i = 0; i < n; i++)
    acc += transforms[i % 2](items[i].weight);
  char *joined = malloc(n * 16);
  joined[0] = 0;
  for (size_t i = 0; i < 10; i++) {
    strcat(joined, items[i].name);
    strcat(joined, " ");
  }
  items = realloc(items, 2 * n * sizeof *items);
  memcpy(items + n, items, n * sizeof *items);
  printf("sorted=%d acc=%ld first=%s len=%zu last=%s hash=%llu\n", sorted, acc,
         joined, strlen(joined), items[2 * n - 1].name,
         (unsigned long long)mix(h, (uint64_t)acc));
  free(joined);
  free(items);
  return sorted ? 0 : 1;
}
