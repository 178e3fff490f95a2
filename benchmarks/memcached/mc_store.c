/*
 * mc_store.c - the cache operations of ptm-memcached, each one transaction
 * (PTM_BEGIN/PTM_END; the plugin instruments every function called from
 * them). Layout: mc_layout.h; design: docs/memcached.md.
 *
 * Copies: a value is copied into a new item inside the storing transaction
 * (the item is the transaction's last allocation, so the gp_/ip_ libraries
 * write it without logging). A value is copied out of an item inside the
 * reading transaction by copy_out, an uninstrumented (PTM_PURE) copy into
 * the caller's private buffer: item values are immutable once committed, and
 * the transaction reached the item through instrumented reads, so if the
 * item is replaced and its memory reused meanwhile, the transaction fails
 * validation and the copy is made again. Instrumenting that copy would only
 * log writes to a private buffer (one log entry per word in a pool slot).
 */
#define _GNU_SOURCE
#include "mc_store.h"
#include "mc_layout.h"
#include "mc_options.h"
#include "mc_watch.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <ptm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Seconds between two LRU bumps of an item, as memcached's item update
 * interval: most gets stay read-only transactions. */
#define LRU_BUMP_INTERVAL 60

static mc_root *g_root;
static uint64_t g_mem_limit;
/* memcached-debug's T_MEMD_INITIAL_MALLOC: bytes counted as already
 * handed out before the first page (tests only) */
static uint64_t g_malloc_base;
static uint64_t g_item_max;
static int g_evict;
static int g_persistent;
static uint64_t g_recovered;
static int g_buffered_ms;

/* debugtime (tests only): seconds added to the clock. */
static int64_t g_clock_offset;

int64_t mc_now(void) {
  return (int64_t)time(NULL) +
         __atomic_load_n(&g_clock_offset, __ATOMIC_RELAXED);
}

void mc_clock_advance(int64_t seconds) {
  __atomic_fetch_add(&g_clock_offset, seconds, __ATOMIC_RELAXED);
}

uint64_t mc_store_item_max(void) { return g_item_max; }

int mc_item_size_ok(size_t nkey, uint64_t nbytes) {
  return mc_item_size(nkey, nbytes) <= g_item_max;
}

uint64_t mc_hash(const char *key, size_t nkey) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, then a final mix */
  for (size_t i = 0; i < nkey; i++) {
    h ^= (unsigned char)key[i];
    h *= 0x100000001b3ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

/* ---- Inside transactions -------------------------------------------------
 * A transaction writes only the cache: results leave it in registers
 * (small structs returned by value) or through PTM_PURE functions into the
 * caller's private memory. A store to a local through a pointer would be a
 * logged write, making every get a writing transaction (a persistent commit
 * with its flushes and fences), and a write into a frame of a function
 * called inside the transaction is written back at commit into stack that
 * the commit itself is using (docs/memcached.md, "Runtime issue found"). */

__attribute__((noinline)) PTM_PURE static void
copy_out(char *dst, const char *src, size_t n) {
  memcpy(dst, src, n);
}

/* The decimal digits of V into BUF (private memory); their count. */
__attribute__((noinline)) PTM_PURE static size_t format_counter(uint64_t v,
                                                                char *buf) {
  size_t n = 1;
  for (uint64_t t = v / 10; t; t /= 10)
    n++;
  for (size_t i = n; i-- > 0; v /= 10)
    buf[i] = (char)('0' + v % 10);
  return n;
}

/* The 8 bytes after IT's value: its client cas (MC_ITEM_CLIENT_CAS), read
 * and written a byte at a time (they need not be aligned). */
static uint64_t client_cas(const mc_item *it) {
  const unsigned char *p =
      (const unsigned char *)it->data + it->nkey + it->nbytes;
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  return v;
}

static void set_client_cas(mc_item *it, uint64_t v) {
  unsigned char *p = (unsigned char *)it->data + it->nkey + it->nbytes;
  for (int i = 0; i < 8; i++, v >>= 8)
    p[i] = (unsigned char)v;
}

/* The cas clients see: the client's (meta E), else the store order. */
static uint64_t item_cas(const mc_item *it) {
  return it->state & MC_ITEM_CLIENT_CAS ? client_cas(it) : it->cas;
}

static int item_dead(const mc_root *r, const mc_item *it, int64_t now) {
  if (it->exptime != 0 && it->exptime <= now)
    return 1;
  if (it->cas <= r->flush_cas)
    return 1;
  return r->flush_at != 0 && r->flush_at <= now && it->stored <= r->flush_at;
}

/* ---- Size classes ----------------------------------------------------------
 * memcached files an item under the first slab class whose chunks hold it
 * (chunks of 96 bytes, then 1.25 times larger each, 8-byte aligned, up to
 * 512 KiB; -n and -f change the first size and the factor) and reports its
 * statistics per class. Here an item is one pool block of mc_item_size
 * bytes, filed under the class memcached's table gives that size (larger
 * ones under the last class, as memcached's chunked items); the root's
 * CLASSES counts each class's items and bytes, in the transactions that
 * link and unlink them, and its evictions, reclaims and expiries. The table
 * depends on -n and -f: mc_store_open rebuilds the counts from the items. */

#define CLASS_CHUNK_MAX (512u << 10)
/* memcached's item header: the first chunk is this plus -n */
#define MC_ITEM_HEADER 48
static uint64_t g_class_size[MC_CLASSES];
static int g_last_class;

static void classes_init(int chunk_min, double factor) {
  uint64_t size = MC_ITEM_HEADER + (uint64_t)chunk_min;
  int i = 1;
  for (; i < MC_CLASSES - 1 && (double)size < CLASS_CHUNK_MAX / factor; i++) {
    size = (size + 7) & ~(uint64_t)7;
    g_class_size[i] = size;
    size = (uint64_t)((double)size * factor);
  }
  g_class_size[i] = CLASS_CHUNK_MAX;
  g_last_class = i;
}

/* Uninstrumented inside transactions: it reads only the table, written
 * once by mc_store_open before any transaction that calls it runs. */
PTM_PURE int mc_store_class_of(uint64_t size) {
  int lo = 1, hi = g_last_class;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (g_class_size[mid] >= size)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

static mc_class *class_for(mc_root *r, const mc_item *it) {
  return &r->classes[mc_store_class_of(mc_item_bytes(it))];
}

/* ---- Slab pages ------------------------------------------------------------
 * -m as memcached counts it: memory goes to a class in pages of 1 MiB (its
 * slab page size, whatever -I is), each cut into the class's chunks; an item
 * takes one chunk of its class (one larger than the largest chunk takes as
 * many of the last class's chunks as it fills, as memcached's chunked
 * items), wherever its pool block really is. A class without a free chunk
 * gets another page while the pages handed out stay within -m (its first
 * page always: memcached grants it whatever the limit), else it evicts from
 * its own LRU tail (with -M: out of memory). Pages stay with their class;
 * only when the pages handed out exceed the limit (cache_memlimit lowered
 * it) does a page wholly free, beyond a class's first, go back, as
 * memcached's page mover returns such pages and frees them. The pool's
 * SLABS has each class's pages, chunks and LRU list (mc_layout.h), written
 * in the transactions that link and unlink items; entry 0 counts all pages.
 * The class table depends on -n and -f: mc_store_open refiles the lists and
 * recounts the chunks and pages when it changed (SLAB_TABLE). */

#define SLAB_PAGE (1u << 20)

PTM_PURE static uint64_t per_page(int cls) {
  return SLAB_PAGE / g_class_size[cls];
}

/* The class chunks an item of SIZE bytes occupies. */
PTM_PURE static uint64_t chunks_of(uint64_t size) {
  uint64_t max = g_class_size[g_last_class];
  return size <= max ? 1 : (size + max - 1) / max;
}

/* What total_malloced reports for PAGES pages. (These three are
 * uninstrumented, as mc_store_class_of: they read only what mc_store_open
 * set before any transaction runs.) */
PTM_PURE static uint64_t malloced(uint64_t pages) {
  return g_malloc_base + pages * SLAB_PAGE;
}

/* The -m in force (read inside transactions without a barrier: a store
 * that sees the old value of a concurrent cache_memlimit is ordered before
 * it). */
PTM_PURE static uint64_t mem_limit_now(void) {
  return __atomic_load_n(&g_mem_limit, __ATOMIC_RELAXED);
}

static mc_slab *slab_for(mc_root *r, const mc_item *it) {
  return &r->slabs[mc_store_class_of(mc_item_bytes(it))];
}

/* The class table's signature (SLAB_TABLE): its chunk sizes and page size. */
static uint64_t table_signature(void) {
  uint64_t h = 0xcbf29ce484222325ull ^ SLAB_PAGE;
  for (int i = 1; i <= g_last_class; i++) {
    h ^= g_class_size[i];
    h *= 0x100000001b3ull;
  }
  return h | 1; /* never 0, a pool without slabs */
}

/* While more pages are handed out than LIMIT allows, class CLS gives back
 * its wholly free pages beyond its first. */
static void release_pages(mc_root *r, int cls, uint64_t limit) {
  mc_slab *s = &r->slabs[cls], *all = &r->slabs[0];
  uint64_t per = per_page(cls);
  while (s->pages > 1 && s->pages * per - s->chunks >= per &&
         malloced(all->pages) > limit) {
    s->pages--;
    all->pages--;
  }
}

/* ---- The hash table ------------------------------------------------------
 * A power-of-two array of chains that doubles online, as memcached's assoc
 * expansion does, once the items outnumber the buckets by 3 to 2: one
 * transaction allocates the new array and keeps the old one beside it
 * (root->old_buckets), small transactions then move the old buckets' chains
 * one bucket at a time and mark each moved bucket MC_MOVED, and a last one
 * frees the old array. A key's chain is its old bucket until that has moved,
 * then its bucket in the new array, so every operation sees each item in
 * exactly one chain whatever step the expansion is at; a crash leaves a
 * committed step, and the maintainer thread finishes the expansion after
 * the restart. Each step conflicts only with operations on the buckets it
 * moves (mc_store_maintain). */

/* The chain holding hash HV. */
static mc_item **bucket_of(mc_root *r, uint64_t hv) {
  mc_item **old = r->old_buckets;
  if (old) {
    mc_item **ob = &old[hv & (r->old_nbuckets - 1)];
    if (*ob != MC_MOVED)
      return ob;
  }
  return &r->buckets[hv & (r->nbuckets - 1)];
}

/* Chains counted by the walks (cachedump, crawler): the array's buckets,
 * then, while it grows, the old array's. */
static uint64_t chain_count(const mc_root *r) {
  return r->nbuckets + (r->old_buckets ? r->old_nbuckets : 0);
}

/* The head of walk chain K (< chain_count), NULL for a moved old bucket's. */
static mc_item **chain_at(mc_root *r, uint64_t k) {
  if (k < r->nbuckets)
    return &r->buckets[k];
  mc_item **ob = &r->old_buckets[k - r->nbuckets];
  return *ob == MC_MOVED ? NULL : ob;
}

/* The link pointing at KEY's item, or NULL. */
static mc_item **find_link(mc_root *r, const char *key, size_t nkey,
                           uint64_t hv) {
  mc_item **pp = bucket_of(r, hv);
  for (mc_item *it = *pp; it; pp = &it->hnext, it = *pp)
    if (it->hash == hv && it->nkey == nkey && memcmp(it->data, key, nkey) == 0)
      return pp;
  return NULL;
}

static mc_item **link_of(mc_root *r, mc_item *item) {
  mc_item **pp = bucket_of(r, item->hash);
  while (*pp != item)
    pp = &(*pp)->hnext;
  return pp;
}

/* Each class has its own LRU list (SLABS): an item is on its class's. */
static void lru_remove(mc_root *r, mc_item *it) {
  mc_slab *s = slab_for(r, it);
  if (it->lru_prev)
    it->lru_prev->lru_next = it->lru_next;
  else
    s->lru_head = it->lru_next;
  if (it->lru_next)
    it->lru_next->lru_prev = it->lru_prev;
  else
    s->lru_tail = it->lru_prev;
}

/* Puts IT at the head of list S. */
static void slab_link(mc_slab *s, mc_item *it) {
  it->lru_prev = NULL;
  it->lru_next = s->lru_head;
  if (s->lru_head)
    s->lru_head->lru_prev = it;
  else
    s->lru_tail = it;
  s->lru_head = it;
}

static void lru_push(mc_root *r, mc_item *it, int64_t now) {
  slab_link(slab_for(r, it), it);
  it->last_access = now;
}

/* Unlinks the item at *PP from the hash table and the LRU and frees it (at
 * commit). */
static void remove_item(mc_root *r, mc_item **pp) {
  mc_item *it = *pp;
  *pp = it->hnext;
  lru_remove(r, it);
  uint64_t size = mc_item_bytes(it);
  r->mem_used -= size;
  r->curr_items--;
  mc_class *k = class_for(r, it);
  k->number--;
  k->bytes -= size;
  r->slabs[k - r->classes].chunks -= chunks_of(size);
  ptm_free(it);
}

/* remove_item for a deletion: a page it leaves wholly free may go back
 * (release_pages). Evictions keep their pages: the class needs them. */
static void delete_item(mc_root *r, mc_item **pp) {
  int cls = mc_store_class_of(mc_item_bytes(*pp));
  remove_item(r, pp);
  release_pages(r, cls, mem_limit_now());
}

/* A lookup's result: the link of the live item, or NULL and why (returned
 * by value: a transaction must not write through a pointer to a local). */
struct found {
  mc_item **pp;
  uint32_t why; /* MC_MISS_* */
  uint32_t cls; /* the dead item's size class (why != MC_MISS_ABSENT) */
};

/* The link of KEY's live item, or NULL; a dead item is removed. */
static struct found lookup_why(mc_root *r, const char *key, size_t nkey,
                               uint64_t hv, int64_t now) {
  mc_item **pp = find_link(r, key, nkey, hv);
  if (!pp || !item_dead(r, *pp, now))
    return (struct found){pp, MC_MISS_ABSENT, 0};
  uint32_t why = MC_MISS_FLUSHED;
  mc_class *k = class_for(r, *pp);
  if ((*pp)->exptime != 0 && (*pp)->exptime <= now) {
    r->expired++;
    k->expired++;
    why = MC_MISS_EXPIRED;
  }
  remove_item(r, pp);
  return (struct found){NULL, why, (uint32_t)(k - r->classes)};
}

static mc_item **lookup(mc_root *r, const char *key, size_t nkey, uint64_t hv,
                        int64_t now) {
  return lookup_why(r, key, nkey, hv, now).pp;
}

/* ---- Eviction notes (watch evictions, mc_watch.h) --------------------------
 * An eviction happens inside a transaction, which may run again: the
 * evicted items are noted in a private per-thread list (note_eviction is
 * PTM_PURE: uninstrumented, and the key bytes it copies never change), the
 * list is emptied when an attempt starts and published once the
 * transaction committed. Nothing is noted while nobody watches evictions;
 * the operations then skip the rest (one relaxed load, before the
 * transaction). */

#define EVICT_NOTES 16
struct evict_note {
  int64_t exptime, last_access, now;
  uint64_t nbytes;
  uint16_t nkey;
  uint8_t fetched;
  char key[MC_KEY_MAX];
};
static __thread struct evict_note t_notes[EVICT_NOTES];
static __thread int t_nnotes;
static __thread uint64_t t_notes_lost; /* beyond EVICT_NOTES */

__attribute__((noinline)) PTM_PURE static void evict_notes_reset(void) {
  t_nnotes = 0;
  t_notes_lost = 0;
}

__attribute__((noinline)) PTM_PURE static void
note_eviction(const char *key, uint16_t nkey, int fetched, int64_t exptime,
              int64_t last_access, uint64_t nbytes, int64_t now) {
  if (!mc_watching(MC_WATCH_EVICTIONS))
    return;
  if (t_nnotes == EVICT_NOTES) {
    t_notes_lost++;
    return;
  }
  struct evict_note *e = &t_notes[t_nnotes++];
  e->exptime = exptime;
  e->last_access = last_access;
  e->now = now;
  e->nbytes = nbytes;
  e->nkey = nkey <= MC_KEY_MAX ? nkey : MC_KEY_MAX;
  e->fetched = (uint8_t)(fetched != 0);
  memcpy(e->key, key, e->nkey);
}

/* After the commit: the noted evictions go to the watchers. */
static void evict_notes_publish(void) {
  for (int i = 0; i < t_nnotes; i++) {
    const struct evict_note *e = &t_notes[i];
    mc_watch_eviction(e->key, e->nkey, e->fetched, e->exptime, e->last_access,
                      e->nbytes, e->now);
  }
  if (t_notes_lost)
    mc_watch_dropped(t_notes_lost);
  t_nnotes = 0;
  t_notes_lost = 0;
}

/* Counts T, about to be removed from the LRU tail: reclaimed if DEAD, else
 * evicted (and noted for watch evictions). */
static void count_removal(mc_root *r, const mc_item *t, int dead, int64_t now) {
  mc_class *k = class_for(r, t);
  if (dead) {
    r->reclaimed++;
    k->reclaimed++;
  } else {
    r->evictions++;
    k->evicted++;
    if (t->exptime != 0)
      k->evicted_nonzero++;
    note_eviction(t->data, t->nkey, t->state & MC_ITEM_FETCHED, t->exptime,
                  t->last_access, t->nbytes, now);
  }
}

/* Makes room in class CLS for NEED chunks, CREDIT of them being freed by
 * the item the new one replaces (KEEP, never evicted): a free chunk, else a
 * new page (within LIMIT, or the class's first), else the class's LRU tail
 * goes (dead items even with -M, live ones only with EVICT). 0: no room. */
static int make_room(mc_root *r, int cls, uint64_t need, uint64_t credit,
                     const mc_item *keep, uint64_t limit, int evict,
                     int64_t now) {
  mc_slab *s = &r->slabs[cls], *all = &r->slabs[0];
  uint64_t per = per_page(cls);
  while (s->pages * per + credit < s->chunks + need) {
    if (s->pages == 0 || malloced(all->pages + 1) <= limit) {
      s->pages++;
      all->pages++;
      continue;
    }
    mc_item *t = s->lru_tail;
    if (t == keep && t)
      t = t->lru_prev;
    if (!t)
      return 0;
    int dead = item_dead(r, t, now);
    if (!dead && !evict)
      return 0;
    count_removal(r, t, dead, now);
    remove_item(r, link_of(r, t));
  }
  return 1;
}

/* As memcached's allocation does, frees the dead items among the last
 * RECLAIM_SEARCH of class CLS's LRU (never KEEP) before a store, full or
 * not, so expired memory is reused rather than left until a lookup meets
 * it. */
#define RECLAIM_SEARCH 5
static void reclaim_tail(mc_root *r, int cls, const mc_item *keep,
                         int64_t now) {
  mc_item *t = r->slabs[cls].lru_tail;
  for (int i = 0; t && i < RECLAIM_SEARCH; i++) {
    mc_item *prev = t->lru_prev;
    if (t != keep && item_dead(r, t, now)) {
      count_removal(r, t, 1, now);
      remove_item(r, link_of(r, t));
    }
    t = prev;
  }
}

/* What every writing operation passes in (never written in a transaction;
 * *RETRY is: put_item sets it when the pool is full and it evicted items to
 * make room, which their frees give only once the transaction commits). */
struct op_args {
  mc_root *root;
  uint64_t limit, item_max;
  int evict;
  int64_t now;
  const char *key;
  size_t nkey;
  uint64_t hv;
  int *retry;
  uint64_t ecas; /* the meta E flag: the new item's client cas; 0 none */
};

/* The pool has no block of SIZE bytes (class CLS): evicts LRU tails (never
 * KEEP; only dead items without EVICT), CLS's first, then the other
 * classes' from the largest chunks down, until the evicted items' sizes
 * add up to SIZE or RETRY_EVICT_MAX items went, so that a transaction's log
 * stays small. 1 if anything was evicted. */
#define RETRY_EVICT_MAX 32
static int evict_for_pool(mc_root *r, int cls, const mc_item *keep, int evict,
                          int64_t now, uint64_t size) {
  uint64_t freed = 0;
  int n = 0;
  for (int i = 0; i <= g_last_class; i++) {
    int c = i == 0 ? cls : g_last_class + 1 - i;
    if (i > 0 && c == cls)
      continue;
    mc_item *t = r->slabs[c].lru_tail;
    while (t && freed < size && n < RETRY_EVICT_MAX) {
      mc_item *prev = t->lru_prev;
      if (t == keep) {
        t = prev;
        continue;
      }
      int dead = item_dead(r, t, now);
      if (!dead && !evict)
        break;
      freed += mc_item_bytes(t);
      n++;
      count_removal(r, t, dead, now);
      remove_item(r, link_of(r, t));
      t = prev;
    }
    if (freed >= size || n >= RETRY_EVICT_MAX)
      break;
  }
  return n > 0;
}

/* Allocates and fills a new item for A's key whose value is HEAD then TAIL,
 * replacing OLD (or NULL), and links it at the LRU head; ECAS (0: none) is
 * its client cas (MC_ITEM_CLIENT_CAS). Returns it, or NULL when there is no
 * room (MC_NO_MEMORY). */
static mc_item *put_item(const struct op_args *a, uint32_t flags,
                         int64_t exptime, const char *head, size_t nhead,
                         const char *tail, size_t ntail, mc_item *old,
                         uint64_t ecas) {
  mc_root *r = a->root;
  uint64_t nbytes = nhead + ntail;
  uint64_t size = mc_item_size(a->nkey, nbytes) + (ecas ? sizeof(uint64_t) : 0);
  uint64_t credit = old ? mc_item_bytes(old) : 0;
  int cls = mc_store_class_of(size);
  /* OLD's chunks are free for the new item when it is of the same class */
  uint64_t chunk_credit =
      old && mc_store_class_of(credit) == cls ? chunks_of(credit) : 0;
  reclaim_tail(r, cls, old, a->now);
  if (!make_room(r, cls, chunks_of(size), chunk_credit, old, a->limit, a->evict,
                 a->now))
    return 0;
  mc_item *it = ptm_malloc(size);
  if (!it) {
    /* A full pool (not -m): the blocks of items evicted now are free only
     * after the commit, so evict a few and have the operation run again in
     * a new transaction (mc_store ...); nothing to evict: out of memory. */
    if (a->retry && evict_for_pool(r, cls, old, a->evict, a->now, size))
      *a->retry = 1;
    return NULL;
  }
  it->exptime = exptime;
  it->stored = a->now;
  it->cas = ++r->cas_counter;
  it->hash = a->hv;
  it->nbytes = nbytes;
  it->nkey = (uint16_t)a->nkey;
  it->state = 0;
  it->flags = flags;
  memcpy(it->data, a->key, a->nkey);
  memcpy(it->data + a->nkey, head, nhead);
  if (ntail)
    memcpy(it->data + a->nkey + nhead, tail, ntail);
  if (ecas) {
    it->state = MC_ITEM_CLIENT_CAS;
    set_client_cas(it, ecas);
    if (r->magic == MC_ROOT_MAGIC)
      r->magic = MC_ROOT_MAGIC_V2;
  }
  if (old) {
    /* OLD's link, found now: eviction may have changed its chain */
    mc_item **oldpp = link_of(r, old);
    it->hnext = old->hnext;
    *oldpp = it;
    lru_remove(r, old);
    r->mem_used -= credit;
    r->curr_items--;
    mc_class *k = class_for(r, old);
    k->number--;
    k->bytes -= credit;
    r->slabs[k - r->classes].chunks -= chunks_of(credit);
    ptm_free(old);
  } else {
    mc_item **bucket = bucket_of(r, a->hv);
    it->hnext = *bucket;
    *bucket = it;
  }
  lru_push(r, it, a->now);
  r->mem_used += size;
  r->curr_items++;
  r->total_items++;
  mc_class *k = &r->classes[cls];
  k->number++;
  k->bytes += size;
  k->stored++;
  r->slabs[cls].chunks += chunks_of(size);
  return it;
}

/* A result and a 64-bit figure: returned in registers (16 bytes). */
struct tx_result {
  uint64_t value;   /* cas (store), new value (arith) */
  mc_result result; /* MC_OK, ... */
  uint32_t prior;   /* MC_PRIOR: what the store's lookup found */
};

/* MC_PRIOR of a lookup's result (inside the transaction). */
static uint32_t prior_of(struct found f) {
  if (f.pp) {
    uint64_t n = (*f.pp)->nbytes;
    return MC_PRIOR(MC_PRIOR_FOUND, n < (1u << 30) ? n : (1u << 30) - 1);
  }
  return f.why == MC_MISS_EXPIRED   ? MC_PRIOR_EXPIRED
         : f.why == MC_MISS_FLUSHED ? MC_PRIOR_FLUSHED
                                    : MC_PRIOR_ABSENT;
}

static struct tx_result store_tx(const struct op_args *a, mc_store_op op,
                                 uint32_t flags, int64_t exptime,
                                 const char *data, size_t ndata,
                                 uint64_t cas_in) {
  mc_root *r = a->root;
  struct found f = lookup_why(r, a->key, a->nkey, a->hv, a->now);
  mc_item **pp = f.pp;
  mc_item *old = pp ? *pp : NULL;
  uint32_t prior = prior_of(f);
  if (f.why != MC_MISS_ABSENT) {
    r->reclaimed++; /* the store takes the place of a dead item */
    r->classes[f.cls].reclaimed++;
  }
  switch (op) {
  case MC_ADD:
    if (old) {
      /* memcached: a failed add counts as an access */
      if (a->now - old->last_access >= LRU_BUMP_INTERVAL) {
        lru_remove(r, old);
        lru_push(r, old, a->now);
      }
      return (struct tx_result){0, MC_NOT_STORED, prior};
    }
    break;
  case MC_REPLACE:
  case MC_APPEND:
  case MC_PREPEND:
    if (!old)
      return (struct tx_result){0, MC_NOT_STORED, prior};
    break;
  case MC_CAS:
    if (!old)
      return (struct tx_result){0, MC_NOT_FOUND, prior};
    if (item_cas(old) != cas_in)
      return (struct tx_result){0, MC_EXISTS, prior};
    break;
  case MC_SET:
    break;
  }
  const char *head = data, *tail = NULL;
  size_t nhead = ndata, ntail = 0;
  if (op == MC_APPEND || op == MC_PREPEND) {
    flags = old->flags;
    exptime = old->exptime;
    if (op == MC_APPEND) {
      head = old->data + old->nkey;
      nhead = old->nbytes;
      tail = data;
      ntail = ndata;
    } else {
      tail = old->data + old->nkey;
      ntail = old->nbytes;
    }
  }
  if (mc_item_size(a->nkey, nhead + ntail) > a->item_max)
    return (struct tx_result){0, MC_TOO_LARGE, prior};
  mc_item *it =
      put_item(a, flags, exptime, head, nhead, tail, ntail, old, a->ecas);
  return it ? (struct tx_result){item_cas(it), MC_OK, prior}
            : (struct tx_result){0, MC_NO_MEMORY, prior};
}

/* A get's result: cas 0 means a miss (every stored item has a cas > 0, a
 * client cas too: E0 is refused). */
struct get_result {
  uint64_t cas;
  uint32_t flags;
  uint32_t ndata;
};

static struct get_result get_tx(mc_root *r, const char *key, size_t nkey,
                                uint64_t hv, int64_t now, int touch,
                                int64_t exptime, char *out) {
  struct found f = lookup_why(r, key, nkey, hv, now);
  if (!f.pp)
    return (struct get_result){0, f.why, 0};
  mc_item *it = *f.pp;
  if (touch)
    it->exptime = exptime;
  if (now - it->last_access >= LRU_BUMP_INTERVAL) {
    lru_remove(r, it);
    lru_push(r, it, now);
  }
  copy_out(out, it->data + it->nkey, it->nbytes);
  return (struct get_result){item_cas(it), it->flags, (uint32_t)it->nbytes};
}

/* A delete's result and the removed item's value length. */
static struct tx_result delete_tx(mc_root *r, const char *key, size_t nkey,
                                  uint64_t hv, int64_t now) {
  mc_item **pp = lookup(r, key, nkey, hv, now);
  if (!pp)
    return (struct tx_result){0, MC_NOT_FOUND, 0};
  uint64_t nbytes = (*pp)->nbytes;
  delete_item(r, pp);
  return (struct tx_result){nbytes, MC_OK, 0};
}

static mc_result touch_tx(mc_root *r, const char *key, size_t nkey, uint64_t hv,
                          int64_t now, int64_t exptime) {
  mc_item **pp = lookup(r, key, nkey, hv, now);
  if (!pp)
    return MC_NOT_FOUND;
  (*pp)->exptime = exptime;
  return MC_OK;
}

/* The decimal value of an item (digits, then optional spaces: memcached
 * pads a shortened in-place result), or ok = 0. */
struct counter {
  uint64_t value;
  int ok;
};

static struct counter parse_counter(const char *s, size_t n) {
  uint64_t v = 0;
  size_t i = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
    uint64_t d = (uint64_t)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10)
      return (struct counter){0, 0};
    v = v * 10 + d;
  }
  if (i == 0)
    return (struct counter){0, 0};
  for (; i < n; i++)
    if (s[i] != ' ')
      return (struct counter){0, 0};
  return (struct counter){v, 1};
}

/* ma's additions to incr/decr: compare the cas, set the TTL. */
struct meta_arith_args {
  int have_cas;
  uint64_t cas_in;
  int touch;
  int64_t touch_exptime;
};

/* incr/decr's result: the new value and the new item's cas, or cas 0 and
 * the mc_result in VALUE. */
struct arith_result {
  uint64_t value, cas;
};

/* incr/decr; DIGITS: private scratch of 24 bytes. */
static struct arith_result arith_tx(const struct op_args *a, int incr,
                                    uint64_t delta, int create,
                                    uint64_t initial, uint32_t flags,
                                    int64_t exptime, char *digits,
                                    const struct meta_arith_args *m) {
  mc_item **pp = lookup(a->root, a->key, a->nkey, a->hv, a->now);
  mc_item *old = pp ? *pp : NULL;
  uint64_t v;
  if (!old) {
    if (!create)
      return (struct arith_result){MC_NOT_FOUND, 0};
    v = initial;
  } else if (m->have_cas && item_cas(old) != m->cas_in) {
    return (struct arith_result){MC_EXISTS, 0};
  } else {
    struct counter c = old->nbytes > 20 + 4
                           ? (struct counter){0, 0}
                           : parse_counter(old->data + old->nkey, old->nbytes);
    if (!c.ok)
      return (struct arith_result){MC_NON_NUMERIC, 0};
    v = incr ? c.value + delta /* wraps at 2^64, as memcached */
             : (c.value < delta ? 0 : c.value - delta);
    flags = old->flags;
    exptime = m->touch ? m->touch_exptime : old->exptime;
  }
  size_t n = format_counter(v, digits);
  mc_item *it = put_item(a, flags, exptime, digits, n, NULL, 0, old, a->ecas);
  return it ? (struct arith_result){v, item_cas(it)}
            : (struct arith_result){MC_NO_MEMORY, 0};
}

static void flush_tx(mc_root *r, int64_t now, int64_t delay) {
  if (delay > 0) {
    /* memcached: items stored up to now + delay - 1 are invalid from then */
    r->flush_at = now + delay - 1;
  } else {
    r->flush_cas = r->cas_counter;
    r->flush_at = 0;
  }
}

static void stats_tx(mc_store_stats *s) {
  const mc_root *r = g_root;
  s->curr_items = r->curr_items;
  s->total_items = r->total_items;
  s->bytes = r->mem_used;
  s->evictions = r->evictions;
  s->reclaimed = r->reclaimed;
  s->expired = r->expired;
  s->hash_bytes = r->nbuckets * sizeof(mc_item *);
  s->total_malloced = malloced(r->slabs[0].pages);
  s->hash_expanding = r->old_buckets != NULL;
}

static void class_stats_tx(mc_class_stats *out) {
  const mc_class *k = g_root->classes;
  for (int i = 1; i <= g_last_class; i++) {
    out[i].number = k[i].number;
    out[i].bytes = k[i].bytes;
    out[i].evicted = k[i].evicted;
    out[i].evicted_nonzero = k[i].evicted_nonzero;
    out[i].reclaimed = k[i].reclaimed;
    out[i].crawler_reclaimed = k[i].crawler_reclaimed;
    out[i].expired = k[i].expired;
    out[i].stored = k[i].stored;
    out[i].pages = g_root->slabs[i].pages;
    out[i].chunks = g_root->slabs[i].chunks;
  }
}

static void class_reset_tx(void) {
  mc_class *k = g_root->classes;
  for (int i = 1; i <= g_last_class; i++) {
    k[i].evicted = k[i].evicted_nonzero = 0;
    k[i].reclaimed = k[i].crawler_reclaimed = k[i].expired = 0;
  }
}

void mc_store_class_reset(void) {
  PTM_BEGIN();
  class_reset_tx();
  PTM_END();
}

int mc_store_class_stats(mc_class_stats out[64]) {
  memset(out, 0, 64 * sizeof *out);
  PTM_BEGIN();
  class_stats_tx(out);
  PTM_END();
  for (int i = 1; i <= g_last_class; i++) {
    out[i].chunk_size = g_class_size[i];
    out[i].per_page = per_page(i);
  }
  return g_last_class;
}

/* 0 ok, 1 created, -1 foreign root, -2 no memory */
static int init_tx(mc_root *r, uint64_t nbuckets) {
  if (r->magic == MC_ROOT_MAGIC || r->magic == MC_ROOT_MAGIC_V2 ||
      r->magic == MC_ROOT_MAGIC_V3)
    return 0;
  if (r->magic != 0)
    return -1;
  mc_item **b = ptm_calloc(nbuckets, sizeof *b);
  if (!b)
    return -2;
  r->buckets = b;
  r->nbuckets = nbuckets;
  r->cas_counter = 0;
  r->magic = MC_ROOT_MAGIC;
  return 1;
}

/* ---- The operations --------------------------------------------------------
 */

static void nudge_maintainer(void);

static struct op_args op_args_of(const char *key, size_t nkey, int *retry) {
  return (struct op_args){.root = g_root,
                          .limit =
                              __atomic_load_n(&g_mem_limit, __ATOMIC_RELAXED),
                          .item_max = g_item_max,
                          .evict = g_evict,
                          .now = mc_now(),
                          .key = key,
                          .nkey = nkey,
                          .hv = mc_hash(key, nkey),
                          .retry = retry};
}

mc_result mc_store(mc_store_op op, const char *key, size_t nkey, uint32_t flags,
                   int64_t exptime, const char *data, size_t ndata,
                   uint64_t cas_in, uint64_t *cas_out, uint32_t *prior) {
  if (prior)
    *prior = MC_PRIOR_ABSENT;
  if (mc_item_size(nkey, ndata) > g_item_max)
    return MC_TOO_LARGE;
  int retry;
  struct op_args a = op_args_of(key, nkey, &retry);
  int watch = mc_watching(MC_WATCH_EVICTIONS) != 0;
  struct tx_result res;
  do {
    retry = 0;
    PTM_BEGIN();
    if (watch)
      evict_notes_reset();
    res = store_tx(&a, op, flags, exptime, data, ndata, cas_in);
    PTM_END();
    if (watch)
      evict_notes_publish();
  } while (retry);
  if (res.result == MC_OK)
    nudge_maintainer();
  if (cas_out)
    *cas_out = res.value;
  if (prior)
    *prior = res.prior;
  return res.result;
}

mc_result mc_get(const char *key, size_t nkey, int touch, int64_t exptime,
                 char *out, uint32_t *flags, size_t *ndata, uint64_t *cas) {
  mc_root *r = g_root;
  uint64_t hv = mc_hash(key, nkey);
  int64_t now = mc_now();
  struct get_result res;
  PTM_BEGIN();
  res = get_tx(r, key, nkey, hv, now, touch, exptime, out);
  PTM_END();
  *flags = res.flags;
  *ndata = res.ndata;
  *cas = res.cas;
  return res.cas ? MC_OK : MC_NOT_FOUND;
}

mc_result mc_delete_item(const char *key, size_t nkey, uint64_t *nbytes) {
  mc_root *r = g_root;
  uint64_t hv = mc_hash(key, nkey);
  int64_t now = mc_now();
  struct tx_result res;
  PTM_BEGIN();
  res = delete_tx(r, key, nkey, hv, now);
  PTM_END();
  if (nbytes)
    *nbytes = res.value;
  return res.result;
}

mc_result mc_delete(const char *key, size_t nkey) {
  return mc_delete_item(key, nkey, NULL);
}

mc_result mc_touch(const char *key, size_t nkey, int64_t exptime) {
  mc_root *r = g_root;
  uint64_t hv = mc_hash(key, nkey);
  int64_t now = mc_now();
  mc_result res;
  PTM_BEGIN();
  res = touch_tx(r, key, nkey, hv, now, exptime);
  PTM_END();
  return res;
}

mc_result mc_arith(const char *key, size_t nkey, int incr, uint64_t delta,
                   int create, uint64_t initial, uint32_t flags,
                   int64_t exptime, uint64_t *value, uint64_t *cas) {
  int retry;
  struct op_args a = op_args_of(key, nkey, &retry);
  char digits[24];
  struct arith_result res;
  const struct meta_arith_args none = {0, 0, 0, 0};
  int watch = mc_watching(MC_WATCH_EVICTIONS) != 0;
  do {
    retry = 0;
    PTM_BEGIN();
    if (watch)
      evict_notes_reset();
    res = arith_tx(&a, incr, delta, create, initial, flags, exptime, digits,
                   &none);
    PTM_END();
    if (watch)
      evict_notes_publish();
  } while (retry);
  if (!res.cas)
    return (mc_result)res.value;
  *value = res.value;
  if (cas)
    *cas = res.cas;
  return MC_OK;
}

/* ---- The meta protocol (mc_meta.c) ---------------------------------------
 * Results leave the transactions through meta_fill, a PTM_PURE copy into the
 * caller's private struct (refilled if the transaction runs again). */

__attribute__((noinline)) PTM_PURE static void
meta_fill(mc_meta_item *o, int found, int created, int won, uint32_t state,
          uint32_t flags, uint64_t cas, uint64_t nbytes, int64_t exptime,
          int64_t last_access) {
  o->found = found;
  o->created = created;
  o->won = won;
  o->state = state;
  o->flags = flags;
  o->cas = cas;
  o->nbytes = nbytes;
  o->exptime = exptime;
  o->last_access = last_access;
}

static void meta_get_tx(const struct op_args *a, const mc_meta_get_opts *o,
                        char *out, mc_meta_item *res) {
  mc_root *r = a->root;
  mc_item **pp = lookup(r, a->key, a->nkey, a->hv, a->now);
  mc_item *it = pp ? *pp : NULL;
  int created = 0, won = 0;
  if (!it && o->vivify) {
    /* an empty item whose creator is told to fill it (W); A->ecas: mg's E,
     * which only such an item takes */
    if (!(it = put_item(a, 0, o->vivify_exptime, "", 0, NULL, 0, NULL,
                        a->ecas))) {
      meta_fill(res, 0, 0, 0, 0, 0, 0, 0, 0, 0);
      return;
    }
    created = won = 1;
  }
  if (!it) {
    meta_fill(res, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    return;
  }
  uint32_t state = created ? 0 : it->state & MC_ITEM_PROTOCOL_BITS;
  int64_t last_access = it->last_access;
  if (o->touch)
    it->exptime = o->touch_exptime;
  if (!(state & MC_ITEM_TOKEN_SENT) && !created) {
    if (o->recache && it->exptime != 0 && it->exptime < o->recache_exptime)
      won = 1;
    if (state & MC_ITEM_STALE)
      won = 1;
  }
  /* u: neither bumped nor marked fetched (memcached's no-update) */
  uint16_t next = (uint16_t)(it->state | (o->no_bump ? 0 : MC_ITEM_FETCHED) |
                             (won ? MC_ITEM_TOKEN_SENT : 0));
  if (it->state != next)
    it->state = next;
  if (!o->no_bump && a->now - it->last_access >= LRU_BUMP_INTERVAL) {
    lru_remove(r, it);
    lru_push(r, it, a->now);
  }
  if (o->want_value)
    copy_out(out, it->data + it->nkey, it->nbytes);
  meta_fill(res, 1, created, won, state, it->flags, item_cas(it), it->nbytes,
            it->exptime, last_access);
}

void mc_meta_get(const char *key, size_t nkey, const mc_meta_get_opts *o,
                 char *out, mc_meta_item *res) {
  int retry;
  struct op_args a = op_args_of(key, nkey, &retry);
  a.ecas = o->vivify_cas;
  do {
    retry = 0;
    PTM_BEGIN();
    meta_get_tx(&a, o, out, res);
    PTM_END();
  } while (retry);
}

/* ms: set/add/replace/append/prepend with an optional cas; with
 * INVALIDATE, a cas older than the item's stores anyway when the item is
 * stale, and the new item stays stale with the old TTL (memcached's I). */
static struct tx_result meta_set_tx(const struct op_args *a, mc_store_op op,
                                    uint32_t flags, int64_t exptime,
                                    const char *data, size_t ndata,
                                    int have_cas, uint64_t cas_in,
                                    int invalidate) {
  mc_root *r = a->root;
  mc_item **pp = lookup(r, a->key, a->nkey, a->hv, a->now);
  mc_item *old = pp ? *pp : NULL;
  uint16_t keep = 0;
  if (have_cas && old && invalidate && cas_in < item_cas(old) &&
      (old->state & MC_ITEM_STALE)) {
    keep = old->state & MC_ITEM_PROTOCOL_BITS;
    exptime = old->exptime;
    cas_in = item_cas(old);
  }
  /* a cas applies to a set; the other modes keep their own condition */
  struct tx_result t = store_tx(a, have_cas && op == MC_SET ? MC_CAS : op,
                                flags, exptime, data, ndata, cas_in);
  if (t.result == MC_OK && keep) {
    mc_item **np = find_link(r, a->key, a->nkey, a->hv);
    (*np)->state |= keep;
  }
  return t;
}

mc_result mc_meta_set(const char *key, size_t nkey, mc_store_op op,
                      uint32_t flags, int64_t exptime, const char *data,
                      size_t ndata, int have_cas, uint64_t cas_in,
                      int invalidate, uint64_t ecas, uint64_t *cas_out,
                      uint32_t *prior) {
  int retry;
  struct op_args a = op_args_of(key, nkey, &retry);
  a.ecas = ecas;
  int watch = mc_watching(MC_WATCH_EVICTIONS) != 0;
  struct tx_result res;
  do {
    retry = 0;
    PTM_BEGIN();
    if (watch)
      evict_notes_reset();
    res = meta_set_tx(&a, op, flags, exptime, data, ndata, have_cas, cas_in,
                      invalidate);
    PTM_END();
    if (watch)
      evict_notes_publish();
  } while (retry);
  if (res.result == MC_OK)
    *cas_out = res.value;
  if (prior)
    *prior = res.prior;
  return res.result;
}

/* md's options besides the cas: I, T, x (with F). */
struct meta_delete_args {
  int invalidate, touch, remove_value;
  uint32_t flags;
  int64_t touch_exptime;
};

/* md: delete; with X->remove_value (x) replace the value with an empty one
 * (flags X->flags, TTL X->touch_exptime or none) that keeps the item's cas
 * (A->ecas: E's); with X->invalidate (I) mark the item stale (a new TTL
 * with X->touch) and give it a new cas: E's, else the next in the store
 * order, as memcached bumps it. VALUE: the removed value's length (0 when
 * only marked stale). */
static struct tx_result meta_delete_tx(const struct op_args *a, int have_cas,
                                       uint64_t cas_in,
                                       const struct meta_delete_args *x) {
  mc_root *r = a->root;
  mc_item **pp = lookup(r, a->key, a->nkey, a->hv, a->now);
  if (!pp)
    return (struct tx_result){0, MC_NOT_FOUND, 0};
  mc_item *it = *pp;
  if (have_cas && item_cas(it) != cas_in)
    return (struct tx_result){0, MC_EXISTS, 0};
  uint64_t nbytes = it->nbytes;
  if (!x->invalidate && !x->remove_value) {
    delete_item(r, pp);
    return (struct tx_result){nbytes, MC_OK, 0};
  }
  uint16_t state = it->state;
  if (x->remove_value) {
    int client = (state & MC_ITEM_CLIENT_CAS) != 0;
    uint64_t order = it->cas;
    uint64_t ecas = a->ecas ? a->ecas : client ? item_cas(it) : 0;
    mc_item *n = put_item(a, x->flags, x->touch ? x->touch_exptime : 0, "", 0,
                          NULL, 0, it, ecas);
    if (!n)
      return (struct tx_result){0, MC_NO_MEMORY, 0};
    if (!ecas)
      n->cas = order; /* the item's cas is kept (its own was freed) */
    it = n;
    state = n->state;
    if (!x->invalidate)
      return (struct tx_result){nbytes, MC_OK, 0};
  } else if (a->ecas && !(state & MC_ITEM_CLIENT_CAS)) {
    /* no room for a client cas: the item is made again with one (not a
     * new store for the statistics) */
    mc_item *n = put_item(a, it->flags, it->exptime, it->data + it->nkey,
                          it->nbytes, NULL, 0, it, a->ecas);
    if (!n)
      return (struct tx_result){0, MC_NO_MEMORY, 0};
    r->total_items--;
    class_for(r, n)->stored--;
    it = n;
    state |= MC_ITEM_CLIENT_CAS;
  }
  if (!a->ecas) {
    it->cas = ++r->cas_counter;
    if (state & MC_ITEM_CLIENT_CAS)
      set_client_cas(it, it->cas);
  } else if (client_cas(it) != a->ecas) {
    set_client_cas(it, a->ecas);
  }
  it->state = (uint16_t)((state | MC_ITEM_STALE) & ~MC_ITEM_TOKEN_SENT);
  if (x->touch)
    it->exptime = x->touch_exptime;
  return (struct tx_result){x->remove_value ? nbytes : 0, MC_OK, 0};
}

mc_result mc_meta_delete(const char *key, size_t nkey, int have_cas,
                         uint64_t cas_in, int invalidate, int touch,
                         int64_t touch_exptime, int remove_value,
                         uint32_t flags, uint64_t ecas, uint64_t *removed) {
  int retry;
  struct op_args a = op_args_of(key, nkey, &retry);
  /* a removed item takes no cas */
  a.ecas = invalidate || remove_value ? ecas : 0;
  const struct meta_delete_args x = {invalidate, touch, remove_value, flags,
                                     touch_exptime};
  int watch = mc_watching(MC_WATCH_EVICTIONS) != 0;
  struct tx_result res;
  do {
    retry = 0;
    PTM_BEGIN();
    if (watch)
      evict_notes_reset();
    res = meta_delete_tx(&a, have_cas, cas_in, &x);
    PTM_END();
    if (watch)
      evict_notes_publish();
  } while (retry);
  *removed = res.value;
  return res.result;
}

mc_result mc_meta_arith(const char *key, size_t nkey, int incr, uint64_t delta,
                        int create, uint64_t initial, int64_t create_exptime,
                        int have_cas, uint64_t cas_in, int touch,
                        int64_t touch_exptime, uint64_t ecas, uint64_t *value,
                        uint64_t *cas) {
  int retry;
  struct op_args a = op_args_of(key, nkey, &retry);
  a.ecas = ecas;
  char digits[24];
  struct arith_result res;
  const struct meta_arith_args m = {have_cas, cas_in, touch, touch_exptime};
  int watch = mc_watching(MC_WATCH_EVICTIONS) != 0;
  do {
    retry = 0;
    PTM_BEGIN();
    if (watch)
      evict_notes_reset();
    res = arith_tx(&a, incr, delta, create, initial, 0,
                   touch ? touch_exptime : create_exptime, digits, &m);
    PTM_END();
    if (watch)
      evict_notes_publish();
  } while (retry);
  if (!res.cas)
    return (mc_result)res.value;
  *value = res.value;
  *cas = res.cas;
  return MC_OK;
}

/* ---- Walks over the whole cache (cachedump, metadump, crawler) -----------
 * A bucket range per transaction, so a walk never holds the cache. */

__attribute__((noinline)) PTM_PURE static void
dump_fill(mc_dump_entry *e, const char *key, uint32_t nkey, uint32_t flags,
          int64_t exptime, int64_t last_access, uint64_t cas, uint64_t nbytes,
          uint64_t size) {
  memcpy(e->key, key, nkey);
  e->nkey = nkey;
  e->flags = flags;
  e->exptime = exptime;
  e->last_access = last_access;
  e->cas = cas;
  e->nbytes = nbytes;
  e->size = size;
}

struct walk_step {
  uint64_t next; /* first bucket not visited */
  uint64_t n;    /* entries filled, or items checked (crawl) */
  uint64_t removed;
};

static struct walk_step dump_tx(mc_root *r, uint64_t first, mc_dump_entry *out,
                                size_t max, int64_t now) {
  uint64_t b = first, n = 0, chains = chain_count(r);
  for (; b < chains; b++) {
    mc_item **head = chain_at(r, b);
    if (!head)
      continue;
    uint64_t chain = 0;
    for (mc_item *it = *head; it; it = it->hnext)
      chain += !item_dead(r, it, now);
    if (n + chain > max && n > 0)
      break; /* whole buckets only */
    for (mc_item *it = *head; it && n < max; it = it->hnext)
      if (!item_dead(r, it, now))
        dump_fill(&out[n++], it->data, it->nkey, it->flags, it->exptime,
                  it->last_access, item_cas(it), it->nbytes, mc_item_bytes(it));
  }
  return (struct walk_step){b < chains ? b : UINT64_MAX, n, 0};
}

static void release_all_tx(mc_root *r, uint64_t limit) {
  for (int i = 1; i <= g_last_class; i++)
    release_pages(r, i, limit);
}

int mc_store_set_mem_limit(uint64_t bytes) {
  /* the caller keeps it within the pool (mc_admin.c); a full pool is
   * reported by the allocator as out of memory in any case */
  __atomic_store_n(&g_mem_limit, bytes, __ATOMIC_RELAXED);
  /* a lower limit: the wholly free pages go back now, the others as
   * deletions empty them */
  mc_root *r = g_root;
  PTM_BEGIN();
  release_all_tx(r, bytes);
  PTM_END();
  return 0;
}

size_t mc_store_dump(uint64_t *cursor, mc_dump_entry *out, size_t max) {
  mc_root *r = g_root;
  int64_t now = mc_now();
  uint64_t first = *cursor;
  struct walk_step st;
  PTM_BEGIN();
  st = dump_tx(r, first, out, max, now);
  PTM_END();
  *cursor = st.next;
  return (size_t)st.n;
}

static struct walk_step crawl_tx(mc_root *r, uint64_t first, uint64_t count,
                                 int64_t now) {
  uint64_t b = first, checked = 0, removed = 0, chains = chain_count(r);
  for (; b < chains && b - first < count; b++) {
    mc_item **pp = chain_at(r, b);
    while (pp && *pp) {
      checked++;
      if (item_dead(r, *pp, now)) {
        r->reclaimed++;
        mc_class *k = class_for(r, *pp);
        k->reclaimed++;
        k->crawler_reclaimed++;
        delete_item(r, pp);
        removed++;
      } else {
        pp = &(*pp)->hnext;
      }
    }
  }
  return (struct walk_step){b < chains ? b : UINT64_MAX, checked, removed};
}

int mc_store_crawl(uint64_t *cursor, uint64_t *checked, uint64_t *removed) {
  mc_root *r = g_root;
  int64_t now = mc_now();
  uint64_t first = *cursor;
  struct walk_step st;
  PTM_BEGIN();
  st = crawl_tx(r, first, 64, now);
  PTM_END();
  *cursor = st.next;
  *checked += st.n;
  *removed += st.removed;
  return st.next != UINT64_MAX;
}

void mc_flush_all(int64_t delay) {
  mc_root *r = g_root;
  int64_t now = mc_now();
  PTM_BEGIN();
  flush_tx(r, now, delay);
  PTM_END();
}

void mc_store_stats_get(mc_store_stats *out) {
  memset(out, 0, sizeof *out);
  PTM_BEGIN();
  stats_tx(out);
  PTM_END();
  out->mem_limit = __atomic_load_n(&g_mem_limit, __ATOMIC_RELAXED);
  out->item_max = g_item_max;
  out->persistent = g_persistent;
  out->recovered = g_recovered;
  out->buffered_ms = g_buffered_ms;
  for (uint64_t n = out->hash_bytes / sizeof(void *); n > 1; n >>= 1)
    out->hash_power++;
}

/* ---- Growing the hash table (the maintainer thread) ----------------------
 * See "The hash table" above. One thread, started by mc_store_open, moves
 * the buckets; workers only nudge it. */

/* Largest bucket array: 2^32 chains (32 GiB of pointers). */
#define HASH_POWER_MAX 32
/* Old buckets moved per transaction: a short transaction that touches a
 * few lines of each array. */
#define EXPAND_STEP 64

static int g_hash_expand = 1;
/* Tests only (PTM_MC_TEST_EXPAND_STEPS=N): the maintainer stops an
 * expansion after its first N steps (0: right after the transaction that
 * began it; N = all of them: before the one that frees the old array), so
 * that a test can kill the server at that point; g_expand_held says it got
 * there (stats: ptm_test_expand_held). */
static long g_expand_step_limit = -1;
static int g_expand_held;
static pthread_t g_maintainer;
static int g_maintainer_running;
static pthread_mutex_t g_maint_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_maint_wake = PTHREAD_COND_INITIALIZER;
static int g_maint_stop;
/* stores since the maintainer last looked (a hint, not exact) */
static uint64_t g_stores_hint;

/* 1: the table was full enough and now grows; 2: it was growing already
 * (a crash interrupted the expansion); 0: nothing to do; -1: the pool has
 * no room for the larger array (tried again later). */
static int expand_start_tx(mc_root *r) {
  if (r->old_buckets)
    return 2;
  if (r->curr_items <= r->nbuckets / 2 * 3 ||
      r->nbuckets >= (1ull << HASH_POWER_MAX))
    return 0;
  mc_item **b = ptm_calloc(r->nbuckets * 2, sizeof *b);
  if (!b)
    return -1;
  r->old_buckets = r->buckets;
  r->old_nbuckets = r->nbuckets;
  r->buckets = b;
  r->nbuckets *= 2;
  return 1;
}

/* Moves the chains of old buckets FIRST.. (at most COUNT); the next old
 * bucket, or UINT64_MAX when none is left (or no expansion runs). */
static uint64_t expand_step_tx(mc_root *r, uint64_t first, uint64_t count) {
  if (!r->old_buckets)
    return UINT64_MAX;
  uint64_t b = first;
  for (; b < r->old_nbuckets && b - first < count; b++) {
    mc_item **ob = &r->old_buckets[b];
    mc_item *it = *ob;
    if (it == MC_MOVED)
      continue;
    while (it) {
      mc_item *next = it->hnext;
      mc_item **nb = &r->buckets[it->hash & (r->nbuckets - 1)];
      it->hnext = *nb;
      *nb = it;
      it = next;
    }
    *ob = MC_MOVED;
  }
  return b < r->old_nbuckets ? b : UINT64_MAX;
}

/* Every old bucket has moved (the one maintainer moved them all, from the
 * first, after any restart): the old array goes. */
static void expand_finish_tx(mc_root *r) {
  mc_item **old = r->old_buckets;
  if (!old)
    return;
  r->old_buckets = NULL;
  r->old_nbuckets = 0;
  ptm_free(old);
}

/* Tests: 1 after holding the expansion, after STEPS steps, until the
 * server stops (PTM_MC_TEST_EXPAND_STEPS); 0 to go on. */
static int test_hold(long steps) {
  if (g_expand_step_limit < 0 || steps < g_expand_step_limit)
    return 0;
  pthread_mutex_lock(&g_maint_lock);
  __atomic_store_n(&g_expand_held, 1, __ATOMIC_RELEASE);
  while (!g_maint_stop)
    pthread_cond_wait(&g_maint_wake, &g_maint_lock);
  pthread_mutex_unlock(&g_maint_lock);
  return 1;
}

/* One expansion, if one is due or was left half done by a crash. */
static void maintain_once(mc_root *r) {
  int started;
  uint64_t next = 0;
  long steps = 0;
  PTM_BEGIN();
  started = expand_start_tx(r);
  PTM_END();
  if (started <= 0)
    return;
  for (;;) {
    uint64_t from = next;
    if (test_hold(steps))
      return;
    PTM_BEGIN();
    next = expand_step_tx(r, from, EXPAND_STEP);
    PTM_END();
    steps++;
    if (next == UINT64_MAX)
      break;
  }
  if (test_hold(steps))
    return;
  PTM_BEGIN();
  expand_finish_tx(r);
  PTM_END();
}

int mc_store_test_expand_held(void) {
  if (g_expand_step_limit < 0)
    return -1;
  return __atomic_load_n(&g_expand_held, __ATOMIC_ACQUIRE);
}

static void *maintainer_main(void *arg) {
  mc_root *r = arg;
  pthread_mutex_lock(&g_maint_lock);
  while (!g_maint_stop) {
    pthread_mutex_unlock(&g_maint_lock);
    maintain_once(r);
    pthread_mutex_lock(&g_maint_lock);
    if (g_maint_stop)
      break;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1; /* a nudge comes sooner under stores */
    pthread_cond_timedwait(&g_maint_wake, &g_maint_lock, &until);
  }
  pthread_mutex_unlock(&g_maint_lock);
  return NULL;
}

/* After a store that added an item: every 1024 of them, wake the
 * maintainer to look at the load factor. */
static void nudge_maintainer(void) {
  if (!g_maintainer_running)
    return;
  if ((__atomic_add_fetch(&g_stores_hint, 1, __ATOMIC_RELAXED) & 1023) == 0)
    pthread_cond_signal(&g_maint_wake);
}

void mc_store_close(void) {
  if (!g_maintainer_running)
    return;
  pthread_mutex_lock(&g_maint_lock);
  g_maint_stop = 1;
  pthread_cond_broadcast(&g_maint_wake);
  pthread_mutex_unlock(&g_maint_lock);
  pthread_join(g_maintainer, NULL);
  g_maintainer_running = 0;
}

static int start_maintainer(mc_root *r, char *err, size_t errlen) {
  const char *env = getenv("PTM_MC_TEST_EXPAND_STEPS");
  if (env && *env) {
    char *end;
    g_expand_step_limit = strtol(env, &end, 10);
    if (*end || g_expand_step_limit < 0) {
      snprintf(err, errlen, "PTM_MC_TEST_EXPAND_STEPS='%s' is not a count",
               env);
      return -1;
    }
  }
  if (!g_hash_expand)
    return 0;
  int rc = pthread_create(&g_maintainer, NULL, maintainer_main, r);
  if (rc != 0) {
    snprintf(err, errlen, "cannot start the hash table's maintainer: %s",
             strerror(rc));
    return -1;
  }
  g_maintainer_running = 1;
  return 0;
}

/* ---- Opening and checking --------------------------------------------------
 * Before the workers start: one thread, recovery done, plain reads. */

/* Whether the item IT of chain K (chain_at) belongs there: in its own
 * bucket, and in the new array only once its old bucket has moved. */
static int item_placed(const mc_root *r, const mc_item *it, uint64_t k) {
  if (k < r->nbuckets)
    return (it->hash & (r->nbuckets - 1)) == k &&
           (!r->old_buckets ||
            r->old_buckets[it->hash & (r->old_nbuckets - 1)] == MC_MOVED);
  return (it->hash & (r->old_nbuckets - 1)) == k - r->nbuckets;
}

/* Walks an LRU list from HEAD: doubly linked, ending at TAIL, at most
 * BOUND items, each of class CLS (0: any). Its length, or UINT64_MAX when
 * it is damaged. */
static uint64_t list_length(const mc_item *head, const mc_item *tail, int cls,
                            uint64_t bound) {
  uint64_t n = 0;
  const mc_item *prev = NULL;
  for (const mc_item *it = head; it; prev = it, it = it->lru_next)
    if (++n > bound || it->lru_prev != prev ||
        (cls && mc_store_class_of(mc_item_bytes(it)) != cls))
      return UINT64_MAX;
  return prev == tail ? n : UINT64_MAX;
}

/* Checks the table, the LRU lists and the counters against each other, and
 * counts the items, bytes and chunks of each size class into CLASSES and
 * CHUNKS. The root's list (a pool written before the slabs, or one whose
 * items are being refiled) may hold items of any class. */
static int check_structure(mc_root *r, mc_class *classes, uint64_t *chunks,
                           char *err, size_t errlen) {
  uint64_t count = 0, bytes = 0;
  if ((r->nbuckets & (r->nbuckets - 1)) != 0 || r->nbuckets == 0 ||
      (r->old_buckets && r->old_nbuckets * 2 != r->nbuckets)) {
    snprintf(err, errlen, "damaged hash table (%llu buckets, %llu old)",
             (unsigned long long)r->nbuckets,
             (unsigned long long)r->old_nbuckets);
    return -1;
  }
  for (uint64_t k = 0, chains = chain_count(r); k < chains; k++) {
    mc_item **head = chain_at(r, k);
    for (const mc_item *it = head ? *head : NULL; it; it = it->hnext) {
      if (it->nkey == 0 || it->nkey > MC_KEY_MAX || !item_placed(r, it, k) ||
          mc_hash(it->data, it->nkey) != it->hash || it->cas == 0 ||
          it->cas > r->cas_counter ||
          ((it->state & MC_ITEM_CLIENT_CAS) && r->magic == MC_ROOT_MAGIC)) {
        snprintf(err, errlen, "damaged item in %s bucket %llu",
                 k < r->nbuckets ? "hash" : "old hash",
                 (unsigned long long)(k < r->nbuckets ? k : k - r->nbuckets));
        return -1;
      }
      if (++count > r->curr_items)
        break;
      uint64_t size = mc_item_bytes(it);
      bytes += size;
      int cls = mc_store_class_of(size);
      classes[cls].number++;
      classes[cls].bytes += size;
      chunks[cls] += chunks_of(size);
    }
  }
  uint64_t lru = list_length(r->lru_head, r->lru_tail, 0, count);
  for (int i = 1; i < MC_CLASSES && lru <= count; i++) {
    const mc_slab *sl = &r->slabs[i];
    uint64_t n = i <= g_last_class
                     ? list_length(sl->lru_head, sl->lru_tail, i, count)
                     : (sl->lru_head || sl->lru_tail ? UINT64_MAX : 0);
    lru = n == UINT64_MAX ? n : lru + n;
  }
  if (count != r->curr_items || lru != count || bytes != r->mem_used) {
    snprintf(err, errlen,
             "inconsistent cache: %llu items in the hash table, %llu in the "
             "LRU lists, %llu counted; %llu bytes, %llu counted",
             (unsigned long long)count, (unsigned long long)lru,
             (unsigned long long)r->curr_items, (unsigned long long)bytes,
             (unsigned long long)r->mem_used);
    return -1;
  }
  return 0;
}

/* The slab block (a pool written before it has none: its items stay on
 * the root's list for refile_tx) and, when the class table changed since
 * the lists were filed (-n, -f), every class's list spliced onto the
 * root's list's old end, its pages and chunks to be recounted. 0: no
 * room. */
static int slabs_tx(mc_root *r, uint64_t table) {
  if (!r->slabs) {
    mc_slab *sl = ptm_calloc(MC_CLASSES, sizeof *sl);
    if (!sl)
      return 0;
    r->slabs = sl;
  } else if (r->slab_table != table) {
    for (int i = 0; i < MC_CLASSES; i++) {
      mc_slab *sl = &r->slabs[i];
      if (sl->lru_head) {
        sl->lru_head->lru_prev = r->lru_tail;
        if (r->lru_tail)
          r->lru_tail->lru_next = sl->lru_head;
        else
          r->lru_head = sl->lru_head;
        r->lru_tail = sl->lru_tail;
      }
      memset(sl, 0, sizeof *sl);
    }
  }
  r->slab_table = table;
  if (r->magic != MC_ROOT_MAGIC_V3)
    r->magic = MC_ROOT_MAGIC_V3;
  return 1;
}

/* Moves up to MAX items from the old end of the root's list to the heads of
 * their classes' lists (so each class keeps their order). 1 while items are
 * left there. */
static int refile_tx(mc_root *r, int max) {
  for (int n = 0; n < max && r->lru_tail; n++) {
    mc_item *it = r->lru_tail;
    r->lru_tail = it->lru_prev;
    if (r->lru_tail)
      r->lru_tail->lru_next = NULL;
    else
      r->lru_head = NULL;
    slab_link(slab_for(r, it), it);
  }
  return r->lru_tail != NULL;
}

/* The size class counters (a pool written before them has none): the
 * counts of COUNTED, the other counters from zero; each class's chunks
 * from CHUNKS and at least the pages they fill (the pages a class held
 * stay with it), entry 0 their sum. 0: no room. */
static int classes_tx(mc_root *r, const mc_class *counted,
                      const uint64_t *chunks) {
  if (!r->classes) {
    mc_class *k = ptm_calloc(MC_CLASSES, sizeof *k);
    if (!k)
      return 0;
    r->classes = k;
  }
  uint64_t pages = 0;
  for (int i = 0; i < MC_CLASSES; i++) {
    mc_class *k = &r->classes[i];
    memset(k, 0, sizeof *k);
    k->number = counted[i].number;
    k->bytes = counted[i].bytes;
    mc_slab *sl = &r->slabs[i];
    if (i == 0 || i > g_last_class) {
      sl->pages = sl->chunks = 0;
      continue;
    }
    uint64_t per = per_page(i), need = (chunks[i] + per - 1) / per;
    sl->chunks = chunks[i];
    if (sl->pages < need)
      sl->pages = need;
    pages += sl->pages;
  }
  r->slabs[0].pages = pages;
  return 1;
}

/* Thread slots of a pool the runtime creates when PTM_POOL_SLOTS is unset. */
#define DEFAULT_POOL_SLOTS 64u

/* Threads beyond the open pool's slots lease them (docs/pool.md
 * "Deploying"): they wait for each other, which -v reports. */
static void report_slots(const mc_store_config *cfg) {
  unsigned have = ptm_pool_slots();
  unsigned need = (unsigned)cfg->threads + MC_SERVICE_THREADS;
  if (have != 0 && have < need && cfg->verbose)
    fprintf(stderr,
            "ptm-memcached: %d worker threads share the pool's %u thread "
            "slots (%u would give each thread its own: a new pool gets them, "
            "ptm-pool create --slots)\n",
            cfg->threads, have, need);
}

int mc_store_open(const mc_store_config *cfg, char *err, size_t errlen) {
  g_mem_limit = cfg->mem_limit;
  g_item_max = cfg->item_max;
  g_evict = cfg->evict;
  g_persistent = ptm_is_persistent();
  if (!g_persistent) {
    /* Volatile (STM) library: items on the ordinary heap. Keep freed
     * blocks mapped (a doomed transaction may still copy from one). */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, -1);
    if (cfg->pool)
      fprintf(stderr,
              "ptm-memcached: library %s is volatile (STM): --pool %s "
              "ignored, the cache does not survive a restart\n",
              ptm_algorithm(), cfg->pool);
    if (cfg->durability)
      fprintf(stderr,
              "ptm-memcached: library %s is volatile (STM): --durability "
              "%s ignored\n",
              ptm_algorithm(), cfg->durability);
    if (cfg->pool_mode)
      fprintf(stderr,
              "ptm-memcached: library %s is volatile (STM): --pool-mode "
              "%s ignored\n",
              ptm_algorithm(), cfg->pool_mode);
  } else {
    /* Read by the runtime when the pool opens (ptm_open, or the default
     * pool at the first transaction). */
    if (cfg->durability && setenv("PTM_DURABILITY", cfg->durability, 1)) {
      snprintf(err, errlen, "cannot set PTM_DURABILITY: %s", strerror(errno));
      return -1;
    }
    /* A pool file the runtime creates gets this mode (default 0600). */
    if (cfg->pool_mode && setenv("PTM_POOL_MODE", cfg->pool_mode, 1)) {
      snprintf(err, errlen, "cannot set PTM_POOL_MODE: %s", strerror(errno));
      return -1;
    }
    const char *mode = getenv("PTM_DURABILITY");
    g_buffered_ms = mode && *mode ? mc_parse_durability(mode) : 0;
    /* A pool the runtime creates (this --pool, PTM_POOL or the temporary
     * one) gets a thread slot for every thread of the server, at least the
     * runtime's default; PTM_POOL_SLOTS set by the user is left alone (and
     * checked below like an existing pool's slots). */
    unsigned need = (unsigned)cfg->threads + MC_SERVICE_THREADS;
    const char *slots = getenv("PTM_POOL_SLOTS");
    if (need > DEFAULT_POOL_SLOTS && !(slots && *slots)) {
      char text[16];
      snprintf(text, sizeof text, "%u", need);
      if (setenv("PTM_POOL_SLOTS", text, 1)) {
        snprintf(err, errlen, "cannot set PTM_POOL_SLOTS: %s", strerror(errno));
        return -1;
      }
    }
  }
  if (g_persistent && cfg->pool) {
    struct stat st;
    int exists = stat(cfg->pool, &st) == 0;
    int rc = ptm_open(cfg->pool, exists ? 0 : cfg->pool_size);
    if (rc == -ENOTSUP) {
      snprintf(err, errlen,
               "cannot open pool %s: library %s cannot defer durability "
               "(buffered durability needs a lazy gp_ or ip_ library, e.g. "
               "ip_orec_lazy)",
               cfg->pool, ptm_algorithm());
      return -1;
    }
    if (rc == -EBUSY) {
      snprintf(err, errlen,
               "cannot open pool %s: another process has it open (a pool "
               "serves one process at a time; the runtime's message above "
               "names it)",
               cfg->pool);
      return MC_STORE_IN_USE;
    }
    if (rc != 0) {
      snprintf(err, errlen, "cannot open pool %s: %s", cfg->pool,
               strerror(-rc));
      return -1;
    }
  }
  mc_root *r = ptm_root(sizeof(mc_root));
  if (!r) {
    snprintf(err, errlen, "cannot get the pool's root object (%zu bytes)",
             sizeof(mc_root));
    return -1;
  }
  report_slots(cfg);
  /* -o hashpower=N, else memcached's default, 2^16 (it grows with the
   * items) */
  uint64_t nbuckets = 1ull << (cfg->hash_power > 0 ? cfg->hash_power : 16);
  g_hash_expand = !cfg->no_hash_expand;
  int created;
  PTM_BEGIN();
  created = init_tx(r, nbuckets);
  PTM_END();
  if (created == -1) {
    snprintf(err, errlen,
             "the pool's root object is not a ptm-memcached cache (magic "
             "%#llx)",
             (unsigned long long)r->magic);
    return -1;
  }
  if (created == -2) {
    snprintf(err, errlen, "the pool has no room for %llu hash buckets",
             (unsigned long long)nbuckets);
    return -1;
  }
  classes_init(cfg->chunk_min, cfg->growth_factor);
  g_malloc_base = cfg->malloc_base;
  uint64_t table = table_signature();
  int slabs_ok;
  PTM_BEGIN();
  slabs_ok = slabs_tx(r, table);
  PTM_END();
  if (!slabs_ok) {
    snprintf(err, errlen, "the pool has no room for the slab classes");
    return -1;
  }
  mc_class counted[MC_CLASSES];
  uint64_t chunks[MC_CLASSES];
  memset(counted, 0, sizeof counted);
  memset(chunks, 0, sizeof chunks);
  if (check_structure(r, counted, chunks, err, errlen) != 0)
    return -1;
  /* the items of an older pool, or of another class table, to their
   * classes' lists: a batch per transaction */
  int left = 1;
  while (left) {
    PTM_BEGIN();
    left = refile_tx(r, 1024);
    PTM_END();
  }
  int classes_ok;
  PTM_BEGIN();
  classes_ok = classes_tx(r, counted, chunks);
  PTM_END();
  if (!classes_ok) {
    snprintf(err, errlen, "the pool has no room for the size class counters");
    return -1;
  }
  g_root = r;
  int resumed = r->old_buckets != NULL; /* (before the maintainer runs) */
  if (start_maintainer(r, err, errlen) != 0)
    return -1;
  g_recovered = created == 1 ? 0 : r->curr_items;
  if (cfg->verbose)
    fprintf(stderr,
            "ptm-memcached: library %s, %s cache, %llu items (%llu bytes) "
            "%s, %llu hash buckets%s\n",
            ptm_algorithm(), g_persistent ? "persistent" : "volatile",
            (unsigned long long)r->curr_items, (unsigned long long)r->mem_used,
            created == 1 ? "(new)" : "recovered",
            (unsigned long long)r->nbuckets,
            resumed ? " (growing: resumed)" : "");
  return 0;
}
