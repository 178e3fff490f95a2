/*
 * pool_free.c - pool blocks released outside transactions with the ordinary
 * free, realloc and malloc_usable_size (runtime/pool/pool_libc.cpp).
 *
 * Each round allocates four blocks of BLOCK bytes: one with malloc inside a
 * transaction (from the pool with an ip_ library, from the ordinary heap
 * otherwise), three with ptm_malloc (inside and outside transactions); then,
 * outside any transaction, grows one with realloc, shrinks another, frees one
 * with realloc(p, 0) and the rest with free, and frees the previous round's
 * last block from inside a transaction through an uninstrumented (PTM_PURE)
 * function. ROUNDS rounds move far more memory through the pool than it
 * holds: a release that did not reach the pool's heap runs it out of space.
 */
#include "interop.h"

#include "../e2e/e2e_check.h"

#include <malloc.h>
#include <ptm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK (1u << 20)
#define ROUNDS 60 /* 60 x 5 MiB = 300 MiB through a pool of 64 MiB */

/* Called uninstrumented inside a transaction: glibc's free, interposed. */
PTM_PURE static void pure_free(void *p) { free(p); }

/* Whether P is in the pool that holds the root object ROOT (persistent
 * libraries: the pool is one mapping of POOL_SIZE bytes). */
static int near_root(const void *p, const void *root, size_t pool_size) {
  uintptr_t a = (uintptr_t)p, r = (uintptr_t)root;
  return (a > r ? a - r : r - a) < pool_size;
}

int interop_free(const char *pool) {
  const size_t pool_size = 64u << 20;
  unlink(pool);
  CHECK_EQ(ptm_open(pool, pool_size), 0);
  int persistent = ptm_is_persistent();
  void *root = ptm_root(64);
  CHECK(root != NULL, "no root object");
  char *held = NULL; /* the previous round's last block */
  for (int r = 1; r <= ROUNDS && !e2e_failures; r++) {
    char *a = NULL, *b = NULL, *c = NULL;
    PTM_BEGIN();
    a = malloc(BLOCK);
    b = ptm_malloc(BLOCK);
    if (a && b) {
      a[0] = (char)r;
      a[BLOCK - 1] = (char)(r + 1);
      b[0] = (char)(r + 2);
      b[BLOCK - 1] = (char)(r + 3);
    }
    if (held)
      pure_free(held); /* deferred to the commit */
    PTM_END();
    held = NULL;
    CHECK(a && b, "round %d: out of memory (a %p, b %p)", r, (void *)a,
          (void *)b);
    if (!a || !b)
      break;
    c = ptm_malloc(BLOCK);
    CHECK(c != NULL, "round %d: ptm_malloc outside a transaction failed", r);
    if (!c)
      break;
    memset(c, r, 64);
    if (persistent) {
      CHECK(near_root(b, root, pool_size) && near_root(c, root, pool_size),
            "ptm_malloc outside the pool");
      if (strncmp(ptm_algorithm(), "ip_", 3) == 0 ||
          strcmp(ptm_algorithm(), "crafty") == 0)
        CHECK(near_root(a, root, pool_size), "ip_ malloc outside the pool");
    }
    CHECK(malloc_usable_size(a) >= BLOCK, "usable size of a: %zu",
          malloc_usable_size(a));
    CHECK(malloc_usable_size(b) >= BLOCK && malloc_usable_size(b) < 2 * BLOCK,
          "usable size of b: %zu", malloc_usable_size(b));

    /* Grow b: the contents move, and a pool block stays one. */
    char *b2 = realloc(b, 2 * BLOCK);
    CHECK(b2 != NULL, "round %d: realloc to %u bytes failed", r, 2 * BLOCK);
    if (!b2)
      break;
    CHECK_EQ(b2[0], (char)(r + 2));
    CHECK_EQ(b2[BLOCK - 1], (char)(r + 3));
    CHECK(malloc_usable_size(b2) >= 2 * BLOCK, "usable size of b2: %zu",
          malloc_usable_size(b2));
    if (persistent)
      CHECK(near_root(b2, root, pool_size), "realloc left the pool");
    b2[2 * BLOCK - 1] = 7;

    /* Shrink c, free the rest. */
    char *c2 = realloc(c, 100);
    CHECK(c2 != NULL, "round %d: realloc to 100 bytes failed", r);
    if (c2) {
      for (int i = 0; i < 64; i++)
        CHECK_EQ(c2[i], (char)r);
    }
    CHECK(realloc(b2, 0) == NULL, "realloc(p, 0) returned a block");
    free(a);
    free(c2);

    /* The next round frees this one inside its transaction. */
    held = ptm_malloc(BLOCK);
    CHECK(held != NULL, "round %d: ptm_malloc outside a transaction failed", r);
  }
  free(held);
  /* Ordinary heap blocks still go to glibc. */
  char *h = malloc(100);
  CHECK(h != NULL, "malloc");
  h = realloc(h, 1000);
  CHECK(h != NULL && malloc_usable_size(h) >= 1000, "realloc of a heap block");
  free(h);
  free(NULL);
  return e2e_failures;
}
