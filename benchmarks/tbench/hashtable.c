/* The hash table of the tbench benchmarks: see hashtable.h. */
#include "hashtable.h"

#include <stdio.h>

static uint64_t bucket_of(const hashtable_t *h, uint64_t key) {
  return hashtable_mix(key) & h->mask;
}

BENCH_TX_SAFE int hashtable_init(hashtable_t *h, uint64_t min_buckets) {
  uint64_t n = 1;
  while (n < min_buckets)
    n <<= 1;
  h->mask = n - 1;
  h->buckets = ptm_calloc(n, sizeof(htnode_t *));
  return h->buckets != NULL;
}

BENCH_TX_SAFE int hashtable_insert(hashtable_t *h, uint64_t key, uint64_t val) {
  htnode_t **head = &h->buckets[bucket_of(h, key)];
  for (htnode_t *n = *head; n; n = n->next)
    if (n->key == key)
      return 0;
  htnode_t *n = ptm_malloc(sizeof *n);
  if (!n)
    return -1;
  n->key = key;
  n->val = val;
  n->next = *head;
  *head = n;
  return 1;
}

BENCH_TX_SAFE int hashtable_lookup(const hashtable_t *h, uint64_t key,
                                   uint64_t *val) {
  for (const htnode_t *n = h->buckets[bucket_of(h, key)]; n; n = n->next)
    if (n->key == key) {
      *val = n->val;
      return 1;
    }
  return 0;
}

BENCH_TX_SAFE int hashtable_remove(hashtable_t *h, uint64_t key) {
  for (htnode_t **prev = &h->buckets[bucket_of(h, key)]; *prev;
       prev = &(*prev)->next) {
    htnode_t *n = *prev;
    if (n->key == key) {
      *prev = n->next;
      ptm_free(n);
      return 1;
    }
  }
  return 0;
}

long hashtable_check(const hashtable_t *h, const char *who,
                     void (*visit)(uint64_t key, uint64_t val, void *arg),
                     void *arg) {
  if (!h->buckets) {
    fprintf(stderr, "%s: hash table has no buckets\n", who);
    return -1;
  }
  long count = 0;
  for (uint64_t b = 0; b <= h->mask; b++)
    for (const htnode_t *n = h->buckets[b]; n; n = n->next, count++) {
      if (bucket_of(h, n->key) != b) {
        fprintf(stderr, "%s: hash key %llu in bucket %llu\n", who,
                (unsigned long long)n->key, (unsigned long long)b);
        return -1;
      }
      for (const htnode_t *m = n->next; m; m = m->next)
        if (m->key == n->key) {
          fprintf(stderr, "%s: hash key %llu twice\n", who,
                  (unsigned long long)n->key);
          return -1;
        }
      if (visit)
        visit(n->key, n->val, arg);
    }
  return count;
}
