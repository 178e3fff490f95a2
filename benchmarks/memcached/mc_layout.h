/*
 * mc_layout.h - the cache's data in the pool: one root object and one block
 * per item (docs/memcached.md, "Data layout").
 *
 * An item's key and value bytes never change after the transaction that
 * created it committed: set, append, incr... build a new item and replace
 * the old one. Only the header fields marked "mutable" and an item's client
 * cas (below) are written later.
 */
#ifndef MC_LAYOUT_H
#define MC_LAYOUT_H

#include <stdint.h>

#define MC_ROOT_MAGIC 0x31764d4450544d63ull /* "cMTPDMv1" */
/* A pool whose items may carry a client cas (MC_ITEM_CLIENT_CAS): the root
 * gets this magic in the transaction that stores the first one, so that a
 * ptm-memcached that knows only v1 refuses the pool rather than miscount
 * its items; a v1 pool is a v2 pool without client cas values. */
#define MC_ROOT_MAGIC_V2 0x32764d4450544d63ull /* "cMTPDMv2" */
/* A pool whose items are on their slab classes' LRU lists (mc_slab): set
 * at every open by a ptm-memcached that files them so (before it moves the
 * items of an older pool there), so that one that knows only v1 and v2,
 * and keeps every item on the root's list, refuses the pool; its items
 * may carry a client cas, as in v2. */
#define MC_ROOT_MAGIC_V3 0x33764d4450544d63ull /* "cMTPDMv3" */

typedef struct mc_item {
  struct mc_item *hnext;    /* mutable: hash chain */
  struct mc_item *lru_prev; /* mutable: towards the head (most recent) of */
  struct mc_item *lru_next; /* its class's LRU (towards the eviction end) */
  int64_t exptime;          /* mutable (touch): absolute, 0 never */
  int64_t last_access;      /* mutable: last LRU bump */
  int64_t stored;           /* time of the store */
  uint64_t cas;             /* mutable (md I): store order, unique, > 0 */
  uint64_t hash;            /* mc_hash of the key */
  uint64_t nbytes;          /* value length */
  uint16_t nkey;            /* key length, 1..MC_KEY_MAX */
  uint16_t state;           /* mutable: MC_ITEM_* (the meta protocol) */
  uint32_t flags;           /* the client's opaque flags */
  char data[];              /* nkey key bytes, then nbytes value bytes */
} mc_item;

/* The items of one of memcached's slab classes (mc_store.c, "Size
 * classes"): one cache line each. */
#define MC_CLASSES 64 /* classes 1..63, as memcached's */
typedef struct mc_class {
  uint64_t number; /* linked items */
  uint64_t bytes;  /* their mc_item_size sum */
  /* since the pool was opened: */
  uint64_t evicted, evicted_nonzero; /* (items with an expiry time) */
  uint64_t reclaimed, crawler_reclaimed, expired;
  uint64_t stored; /* items linked into the class */
} mc_class;

/* The slab pages and the LRU list of one of memcached's slab classes
 * (mc_store.c, "Slab pages"): one cache line each. Entry 0 (memcached's
 * class 0 is its pool of free pages) has no list; its PAGES counts the
 * pages of all classes together. */
typedef struct mc_slab {
  uint64_t pages;           /* 1 MiB pages the class holds */
  uint64_t chunks;          /* chunks its linked items occupy */
  struct mc_item *lru_head; /* most recent */
  struct mc_item *lru_tail; /* the eviction end */
  char pad[32];
} mc_slab;

/* Fields on separate cache lines by how often they are written, so the
 * read-mostly ones never share an orec or a line with the counters. */
typedef struct mc_root {
  uint64_t magic;
  uint64_t nbuckets; /* power of two; doubles as the cache grows */
  mc_item **buckets;
  /* While the table grows (mc_store.c, "The hash table"): the previous,
   * half-size array, whose buckets move one by one into BUCKETS and are
   * then marked MC_MOVED; NULL otherwise (a pool written before the table
   * could grow reads NULL here). */
  mc_item **old_buckets;
  uint64_t old_nbuckets;
  /* MC_CLASSES counters by size class, rebuilt at every open (a pool
   * written before they existed reads NULL here) */
  mc_class *classes;
  /* MC_CLASSES slab page counts and LRU lists, filed by the class table
   * whose signature is SLAB_TABLE (a pool written before them reads NULL
   * and 0 here; its items are all on the root's LRU list below, which is
   * otherwise empty: mc_store_open moves them into their classes' lists) */
  mc_slab *slabs;
  uint64_t slab_table;
  uint64_t flush_cas; /* items with cas <= flush_cas are flushed */
  int64_t flush_at;   /* delayed flush_all: stored <= flush_at <= now */
  char pad1[48];
  uint64_t cas_counter;
  char pad2[56];
  /* the LRU of a pool written before the slabs (see SLABS) */
  mc_item *lru_head, *lru_tail;
  char pad3[48];
  uint64_t mem_used; /* sum of mc_item_size over linked items */
  uint64_t curr_items, total_items, evictions, reclaimed, expired;
  char pad4[16];
} mc_root;

/* An item's state bits. The two 16-bit fields take the place of one 32-bit
 * key length (always below 2^16): a pool written before they existed reads
 * as state 0 on this little-endian layout. */
enum {
  MC_ITEM_FETCHED = 1,    /* read since it was stored (mg h) */
  MC_ITEM_TOKEN_SENT = 2, /* a client won the right to recache it (W) */
  MC_ITEM_STALE = 4,      /* invalidated by md I: served with X */
  /* The meta E flag: the cas clients see is the 8 bytes after the value
   * (mutable: md I), not CAS, which stays the store order that flush_all
   * and the recovery check use. The block is 8 bytes longer. */
  MC_ITEM_CLIENT_CAS = 8
};
/* The bits the meta protocol reports (h, Z, X). */
#define MC_ITEM_PROTOCOL_BITS                                                  \
  (MC_ITEM_FETCHED | MC_ITEM_TOKEN_SENT | MC_ITEM_STALE)

/* An old bucket whose chain has moved into the grown table. */
#define MC_MOVED ((mc_item *)1)

static inline uint64_t mc_item_size(uint64_t nkey, uint64_t nbytes) {
  return sizeof(mc_item) + nkey + nbytes;
}

/* The size of IT's block. */
static inline uint64_t mc_item_bytes(const mc_item *it) {
  return mc_item_size(it->nkey, it->nbytes) +
         (it->state & MC_ITEM_CLIENT_CAS ? sizeof(uint64_t) : 0);
}

#endif /* MC_LAYOUT_H */
