/* The PMDK peer's TPC-C index: see tpcc_index_pmdk.h. */
#include "tpcc_index_pmdk.h"

#include "hashtable.h"
#include "tpcc_schema.h"

#include <stdio.h>

struct tpcc_index {
  uint64_t mask;    /* buckets per part - 1 */
  uint64_t parts;   /* 1, or one per warehouse */
  uint64_t shift;   /* with parts > 1: key >> shift is the district key */
  uint64_t buckets; /* pool offset of parts * (mask + 1) node offsets */
};

struct tpcc_pnode {
  uint64_t key;
  uint64_t row;  /* pool offset */
  uint64_t next; /* pool offset, 0 at the end of the chain */
};

const char tpcc_index_kind[] = "hash";

static PMEMobjpool *pool;

void tpcc_index_pool(PMEMobjpool *pop) { pool = pop; }

static void *at(uint64_t off) { return (char *)pool + off; }
static uint64_t offset_of(const void *p) {
  return (uint64_t)((const char *)p - (const char *)pool);
}

static uint64_t *bucket_of(const tpcc_index_t *ix, uint64_t key) {
  uint64_t part = ix->parts > 1 ? (key >> ix->shift) / DISTRICTS : 0;
  uint64_t *buckets = at(ix->buckets);
  return &buckets[part * (ix->mask + 1) + (hashtable_mix(key) & ix->mask)];
}

static tpcc_index_t *new_index(uint64_t expected_rows, uint64_t parts,
                               unsigned shift) {
  uint64_t per_part = expected_rows / parts, n = 1;
  while (n < per_part)
    n <<= 1;
  PMEMoid o = pmemobj_tx_zalloc(sizeof(tpcc_index_t), 0);
  PMEMoid b = pmemobj_tx_zalloc(parts * n * sizeof(uint64_t), 0);
  if (OID_IS_NULL(o) || OID_IS_NULL(b))
    return NULL;
  tpcc_index_t *ix = pmemobj_direct(o);
  ix->mask = n - 1;
  ix->parts = parts;
  ix->shift = shift;
  ix->buckets = b.off;
  return ix;
}

tpcc_index_t *tpcc_index_new(uint64_t expected_rows) {
  return new_index(expected_rows, 1, 0);
}

tpcc_index_t *tpcc_index_new_by_warehouse(uint64_t expected_rows,
                                          unsigned shift) {
  return new_index(expected_rows, (uint64_t)tpcc_warehouses, shift);
}

int tpcc_index_put(tpcc_index_t *ix, uint64_t key, void *row) {
  uint64_t *head = bucket_of(ix, key);
  for (uint64_t n = *head; n; n = ((const struct tpcc_pnode *)at(n))->next)
    if (((const struct tpcc_pnode *)at(n))->key == key)
      return 0;
  PMEMoid o = pmemobj_tx_alloc(sizeof(struct tpcc_pnode), 0);
  if (OID_IS_NULL(o))
    return -1;
  struct tpcc_pnode *node = pmemobj_direct(o);
  node->key = key;
  node->row = offset_of(row);
  node->next = *head;
  pmemobj_tx_add_range_direct(head, sizeof *head);
  *head = o.off;
  return 1;
}

void *tpcc_index_get(const tpcc_index_t *ix, uint64_t key) {
  for (uint64_t n = *bucket_of(ix, key); n;) {
    const struct tpcc_pnode *node = at(n);
    if (node->key == key)
      return at(node->row);
    n = node->next;
  }
  return NULL;
}

long tpcc_index_check(const tpcc_index_t *ix, const char *who) {
  long count = 0;
  const uint64_t *buckets = at(ix->buckets);
  for (uint64_t b = 0; b < ix->parts * (ix->mask + 1); b++)
    for (uint64_t n = buckets[b]; n; count++) {
      const struct tpcc_pnode *node = at(n);
      if (bucket_of(ix, node->key) != &buckets[b]) {
        fprintf(stderr, "%s: hash key %llu in bucket %llu\n", who,
                (unsigned long long)node->key, (unsigned long long)b);
        return -1;
      }
      for (uint64_t m = node->next; m;) {
        const struct tpcc_pnode *other = at(m);
        if (other->key == node->key) {
          fprintf(stderr, "%s: hash key %llu twice\n", who,
                  (unsigned long long)node->key);
          return -1;
        }
        m = other->next;
      }
      n = node->next;
    }
  return count;
}
