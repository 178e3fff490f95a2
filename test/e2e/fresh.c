/* Writes into a block the transaction just allocated, through every write
 * path the plugin can emit (scalar stores, struct copies and memset lowered to
 * __ptm_memcpy/__ptm_memset, libc string functions, an unknown-size copy),
 * read back in the same transaction. With last-allocation tracking (gp_/ip_
 * libraries) reads of the fresh block are plain loads, so every write path
 * must store there in place; a write left in a redo log would be invisible
 * to those reads until commit. */
#include "e2e.h"

#include <stdint.h>
#include <string.h>

struct record {
  long key;
  long values[12];
  char name[40];
};

static struct record template_rec; /* shared, read inside transactions */
static struct record *kept[8];
static volatile size_t runtime_len = sizeof(struct record);

/* The allocation model (DESIGN.md): malloc inside a transaction takes pool
 * memory with an ip_ library, ordinary heap memory with p_ and gp_ ones.
 * Pools are mapped far from the heap (docs/pool.md), so "in the pool" is "in
 * the same 1 TiB region as the root object". 1 = pool, 0 = heap, -1 = no
 * rule (volatile libraries). */
static int expect_pool_malloc(void) {
  const char *lib = ptm_algorithm();
  if (strncmp(lib, "ip_", 3) == 0 || strcmp(lib, "crafty") == 0)
    return 1;
  if (strncmp(lib, "p_", 2) == 0 || strncmp(lib, "gp_", 3) == 0)
    return 0;
  return -1;
}

static int in_pool(const void *p, const void *root) {
  return ((uintptr_t)p >> 40) == ((uintptr_t)root >> 40);
}

/* Same-unit helper (cloned): copy whose size the compiler does not know. */
static void copy_bytes(void *dst, const void *src, size_t n) {
  memcpy(dst, src, n);
}

int main(void) {
  E2E_RESET();
  template_rec.key = 7;
  for (int i = 0; i < 12; i++)
    template_rec.values[i] = 100 + i;
  strcpy(template_rec.name, "template");

  const void *root = ptm_root(64);
  int pool_malloc = expect_pool_malloc();
  for (int round = 0; round < 8; round++) {
    long seen_key = 0, seen_sum = 0, seen_zero = -1, seen_len = 0;
    long seen_copy = 0;
    PTM_BEGIN();
    struct record *r = malloc(sizeof *r);
    if (!r)
      abort();
    *r = template_rec; /* struct copy: __ptm_memcpy */
    r->key += round;   /* scalar store */
    seen_key = r->key;
    for (int i = 0; i < 12; i++)
      seen_sum += r->values[i];
    memset(r->values, 0, sizeof r->values); /* __ptm_memset */
    seen_zero = 0;
    for (int i = 0; i < 12; i++)
      seen_zero |= r->values[i];
    strcpy(r->name, "fresh-record"); /* libc in the transaction */
    seen_len = (long)strlen(r->name);
    struct record *s = malloc(sizeof *s); /* r is no longer the last */
    if (!s)
      abort();
    copy_bytes(s, r, runtime_len);
    s->values[3] = round;
    seen_copy = s->key + s->values[3] + (long)strlen(s->name);
    kept[round] = s;
    free(r);
    PTM_END();
    CHECK_EQ(seen_key, 7 + round);
    CHECK_EQ(seen_sum, 12 * 100 + 66);
    CHECK_EQ(seen_zero, 0);
    CHECK_EQ(seen_len, 12);
    CHECK_EQ(seen_copy, 7 + round + round + 12);
    if (pool_malloc >= 0)
      CHECK(in_pool(kept[round], root) == pool_malloc,
            "malloc in a transaction of %s returned %p (root %p)",
            ptm_algorithm(), (void *)kept[round], root);
  }
  for (int round = 0; round < 8; round++) {
    CHECK_EQ(kept[round]->key, 7 + round);
    CHECK_EQ(kept[round]->values[3], round);
    CHECK_EQ(kept[round]->values[4], 0);
    CHECK(strcmp(kept[round]->name, "fresh-record") == 0, "name '%s'",
          kept[round]->name);
    PTM_BEGIN(); /* the block may be a pool block: free it in a tx */
    free(kept[round]);
    PTM_END();
  }
  return e2e_finish("fresh");
}
