/*
 * hashtable.h - a map from keys to data with a fixed number of buckets of
 * chained entries (STAMP's hashtable_t, without resizing, as its
 * transactional form). HASH maps a key to an unsigned value, CMP compares
 * two keys (NULL for either: the key's pointer value is hashed/compared).
 */
#ifndef STAMP_HASHTABLE_H
#define STAMP_HASHTABLE_H

#include "types.h"

typedef ulong_t (*hashtable_hash_t)(const void *key);

typedef struct hashtable_entry {
  void *key;
  void *data;
  struct hashtable_entry *next;
} hashtable_entry_t;

typedef struct hashtable {
  long numBucket;
  long size;
  hashtable_hash_t hash;
  stamp_cmp_t cmp;
  hashtable_entry_t **buckets;
} hashtable_t;

hashtable_t *hashtable_alloc(long numBucket, hashtable_hash_t hash,
                             stamp_cmp_t cmp);
void hashtable_free(hashtable_t *h); /* entries, not keys or data */
bool_t hashtable_isEmpty(hashtable_t *h);
long hashtable_getSize(hashtable_t *h);
bool_t hashtable_containsKey(hashtable_t *h, void *key);
void *hashtable_find(hashtable_t *h, void *key); /* NULL if absent */
bool_t hashtable_insert(hashtable_t *h, void *key, void *data); /* no dups */
bool_t hashtable_remove(hashtable_t *h, void *key);

/* Iteration over all entries: for (b = 0, e = NULL; hashtable_next(h, &b,
 * &e);) use e->key, e->data. */
bool_t hashtable_next(hashtable_t *h, long *bucket, hashtable_entry_t **e);

#endif /* STAMP_HASHTABLE_H */
