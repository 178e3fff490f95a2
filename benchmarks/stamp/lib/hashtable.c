/* The chained hash table: see hashtable.h. */
#include "hashtable.h"

#include "tm.h"

hashtable_t *hashtable_alloc(long numBucket, hashtable_hash_t hash,
                             stamp_cmp_t cmp) {
  if (numBucket < 1)
    numBucket = 1;
  hashtable_t *h = TM_MALLOC(sizeof *h);
  if (!h)
    return NULL;
  h->buckets = TM_MALLOC((size_t)numBucket * sizeof *h->buckets);
  if (!h->buckets) {
    TM_FREE(h);
    return NULL;
  }
  for (long i = 0; i < numBucket; i++)
    h->buckets[i] = NULL;
  h->numBucket = numBucket;
  h->size = 0;
  h->hash = hash;
  h->cmp = cmp;
  return h;
}

void hashtable_free(hashtable_t *h) {
  for (long i = 0; i < h->numBucket; i++) {
    hashtable_entry_t *e = h->buckets[i];
    while (e) {
      hashtable_entry_t *next = e->next;
      TM_FREE(e);
      e = next;
    }
  }
  TM_FREE(h->buckets);
  TM_FREE(h);
}

bool_t hashtable_isEmpty(hashtable_t *h) { return h->size == 0; }
long hashtable_getSize(hashtable_t *h) { return h->size; }

static hashtable_entry_t **bucket_of(hashtable_t *h, void *key) {
  ulong_t v = h->hash ? h->hash(key) : (ulong_t)key;
  return &h->buckets[v % (ulong_t)h->numBucket];
}

static bool_t same_key(hashtable_t *h, void *a, void *b) {
  return h->cmp ? h->cmp(a, b) == 0 : a == b;
}

/* The link that points to KEY's entry, or to NULL at the end of its chain. */
static hashtable_entry_t **find_link(hashtable_t *h, void *key) {
  hashtable_entry_t **link = bucket_of(h, key);
  while (*link && !same_key(h, (*link)->key, key))
    link = &(*link)->next;
  return link;
}

bool_t hashtable_containsKey(hashtable_t *h, void *key) {
  return *find_link(h, key) != NULL;
}

void *hashtable_find(hashtable_t *h, void *key) {
  hashtable_entry_t *e = *find_link(h, key);
  return e ? e->data : NULL;
}

bool_t hashtable_insert(hashtable_t *h, void *key, void *data) {
  if (*find_link(h, key))
    return FALSE;
  hashtable_entry_t *e = TM_MALLOC(sizeof *e);
  if (!e)
    return FALSE;
  hashtable_entry_t **bucket = bucket_of(h, key);
  e->key = key;
  e->data = data;
  e->next = *bucket;
  *bucket = e;
  h->size++;
  return TRUE;
}

bool_t hashtable_remove(hashtable_t *h, void *key) {
  hashtable_entry_t **link = find_link(h, key);
  hashtable_entry_t *e = *link;
  if (!e)
    return FALSE;
  *link = e->next;
  TM_FREE(e);
  h->size--;
  return TRUE;
}

bool_t hashtable_next(hashtable_t *h, long *bucket, hashtable_entry_t **e) {
  if (*e && (*e)->next) {
    *e = (*e)->next;
    return TRUE;
  }
  long b = *e ? *bucket + 1 : *bucket;
  for (; b < h->numBucket; b++)
    if (h->buckets[b]) {
      *bucket = b;
      *e = h->buckets[b];
      return TRUE;
    }
  *bucket = b;
  *e = NULL;
  return FALSE;
}
