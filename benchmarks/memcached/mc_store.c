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

#include <errno.h>
#include <malloc.h>
#include <ptm.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Seconds between two LRU bumps of an item, as memcached's item update
 * interval: most gets stay read-only transactions. */
#define LRU_BUMP_INTERVAL 60

static mc_root *g_root;
static uint64_t g_mem_limit;
static uint64_t g_item_max;
static int g_evict;
static int g_persistent;
static uint64_t g_recovered;

int64_t mc_now(void) { return (int64_t)time(NULL); }

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
 * WORKSPACE: memory that a transaction writes through a pointer (lookup's
 * link, the new item's description, incr's digits) is a field of the
 * argument block in the frame that runs PTM_BEGIN, never a local of a
 * function called inside the transaction: such frames are dead at commit,
 * and a redo library's write-back into them could land on the frames of the
 * commit itself (docs/memcached.md, "Runtime issue found"). */

__attribute__((noinline)) PTM_PURE static void
copy_out(char *dst, const char *src, size_t n) {
  memcpy(dst, src, n);
}

static int item_dead(const mc_root *r, const mc_item *it, int64_t now) {
  if (it->exptime != 0 && it->exptime <= now)
    return 1;
  if (it->cas <= r->flush_cas)
    return 1;
  return r->flush_at != 0 && r->flush_at <= now && it->stored <= r->flush_at;
}

/* The link pointing at KEY's item, or NULL. */
static mc_item **find_link(mc_root *r, const char *key, size_t nkey,
                           uint64_t hv) {
  mc_item **pp = &r->buckets[hv & (r->nbuckets - 1)];
  for (mc_item *it = *pp; it; pp = &it->hnext, it = *pp)
    if (it->hash == hv && it->nkey == nkey && memcmp(it->data, key, nkey) == 0)
      return pp;
  return NULL;
}

static mc_item **link_of(mc_root *r, mc_item *item) {
  mc_item **pp = &r->buckets[item->hash & (r->nbuckets - 1)];
  while (*pp != item)
    pp = &(*pp)->hnext;
  return pp;
}

static void lru_remove(mc_root *r, mc_item *it) {
  if (it->lru_prev)
    it->lru_prev->lru_next = it->lru_next;
  else
    r->lru_head = it->lru_next;
  if (it->lru_next)
    it->lru_next->lru_prev = it->lru_prev;
  else
    r->lru_tail = it->lru_prev;
}

static void lru_push(mc_root *r, mc_item *it, int64_t now) {
  it->lru_prev = NULL;
  it->lru_next = r->lru_head;
  if (r->lru_head)
    r->lru_head->lru_prev = it;
  else
    r->lru_tail = it;
  r->lru_head = it;
  it->last_access = now;
}

/* Unlinks the item at *PP from the hash table and the LRU and frees it (at
 * commit). */
static void remove_item(mc_root *r, mc_item **pp) {
  mc_item *it = *pp;
  *pp = it->hnext;
  lru_remove(r, it);
  r->mem_used -= mc_item_size(it->nkey, it->nbytes);
  r->curr_items--;
  ptm_free(it);
}

/* KEY's live item (its link in *PPOUT), or NULL; a dead one is removed. */
static mc_item *lookup(mc_root *r, const char *key, size_t nkey, uint64_t hv,
                       int64_t now, mc_item ***ppout) {
  mc_item **pp = find_link(r, key, nkey, hv);
  if (!pp)
    return NULL;
  if (item_dead(r, *pp, now)) {
    if ((*pp)->exptime != 0 && (*pp)->exptime <= now)
      r->expired++;
    remove_item(r, pp);
    return NULL;
  }
  *ppout = pp;
  return *pp;
}

/* Evicts from the LRU tail (never KEEP) until NEED more bytes fit under the
 * limit. Dead items are reclaimed even with -M. 0: not enough room. */
static int make_room(mc_root *r, uint64_t need, uint64_t credit,
                     const mc_item *keep, uint64_t limit, int evict,
                     int64_t now) {
  mc_item *t = r->lru_tail;
  while (r->mem_used - credit + need > limit) {
    if (t == keep && t)
      t = t->lru_prev;
    if (!t)
      return 0;
    mc_item *prev = t->lru_prev;
    int dead = item_dead(r, t, now);
    if (!dead && !evict)
      return 0;
    if (dead)
      r->reclaimed++;
    else
      r->evictions++;
    remove_item(r, link_of(r, t));
    t = prev;
  }
  return 1;
}

/* Evicts the LRU tail item other than KEEP. 0: none left. */
static int evict_one(mc_root *r, const mc_item *keep, int evict, int64_t now) {
  mc_item *t = r->lru_tail;
  if (t == keep && t)
    t = t->lru_prev;
  if (!t || (!evict && !item_dead(r, t, now)))
    return 0;
  r->evictions++;
  remove_item(r, link_of(r, t));
  return 1;
}

struct new_item {
  const char *key;
  size_t nkey;
  uint64_t hv;
  uint32_t flags;
  int64_t exptime;
  const char *head; /* value = head bytes, then tail bytes */
  size_t nhead;
  const char *tail;
  size_t ntail;
};

/* Allocates and fills a new item replacing OLD (at *OLDPP, or NULL), links
 * it at the LRU head. Returns its cas, or 0 on MC_NO_MEMORY. */
static uint64_t put_item(mc_root *r, const struct new_item *n, mc_item *old,
                         uint64_t limit, int evict, int64_t now) {
  uint64_t nbytes = n->nhead + n->ntail;
  uint64_t size = mc_item_size(n->nkey, nbytes);
  uint64_t credit = old ? mc_item_size(old->nkey, old->nbytes) : 0;
  if (!make_room(r, size, credit, old, limit, evict, now))
    return 0;
  mc_item *it;
  while (!(it = ptm_malloc(size)))
    if (!evict_one(r, old, evict, now))
      return 0;
  it->exptime = n->exptime;
  it->stored = now;
  it->cas = ++r->cas_counter;
  it->hash = n->hv;
  it->nbytes = nbytes;
  it->nkey = (uint32_t)n->nkey;
  it->flags = n->flags;
  memcpy(it->data, n->key, n->nkey);
  memcpy(it->data + n->nkey, n->head, n->nhead);
  if (n->ntail)
    memcpy(it->data + n->nkey + n->nhead, n->tail, n->ntail);
  if (old) {
    /* OLD's link, found now: eviction may have changed its chain */
    mc_item **oldpp = link_of(r, old);
    it->hnext = old->hnext;
    *oldpp = it;
    lru_remove(r, old);
    r->mem_used -= credit;
    r->curr_items--;
    ptm_free(old);
  } else {
    mc_item **bucket = &r->buckets[n->hv & (r->nbuckets - 1)];
    it->hnext = *bucket;
    *bucket = it;
  }
  lru_push(r, it, now);
  r->mem_used += size;
  r->curr_items++;
  r->total_items++;
  return it->cas;
}

struct store_args {
  mc_root *root;
  uint64_t limit, item_max;
  int evict;
  int64_t now;
  mc_store_op op;
  const char *key;
  size_t nkey;
  uint64_t hv;
  uint32_t flags;
  int64_t exptime;
  const char *data;
  size_t ndata;
  uint64_t cas_in;
  /* results */
  mc_result result;
  uint64_t cas_out;
  /* scratch written inside the transaction (see WORKSPACE) */
  mc_item **pp;
  struct new_item n;
};

static void store_tx(struct store_args *a) {
  mc_root *r = a->root;
  mc_item *old = lookup(r, a->key, a->nkey, a->hv, a->now, &a->pp);
  struct new_item *n = &a->n;
  *n = (struct new_item){a->key,  a->nkey,  a->hv, a->flags, a->exptime,
                         a->data, a->ndata, NULL,  0};
  a->cas_out = 0;
  switch (a->op) {
  case MC_ADD:
    if (old) {
      /* memcached: a failed add counts as an access */
      if (a->now - old->last_access >= LRU_BUMP_INTERVAL) {
        lru_remove(r, old);
        lru_push(r, old, a->now);
      }
      a->result = MC_NOT_STORED;
      return;
    }
    break;
  case MC_REPLACE:
  case MC_APPEND:
  case MC_PREPEND:
    if (!old) {
      a->result = MC_NOT_STORED;
      return;
    }
    break;
  case MC_CAS:
    if (!old) {
      a->result = MC_NOT_FOUND;
      return;
    }
    if (old->cas != a->cas_in) {
      a->result = MC_EXISTS;
      return;
    }
    break;
  case MC_SET:
    break;
  }
  if (a->op == MC_APPEND || a->op == MC_PREPEND) {
    const char *oldval = old->data + old->nkey;
    n->flags = old->flags;
    n->exptime = old->exptime;
    if (a->op == MC_APPEND) {
      n->head = oldval;
      n->nhead = old->nbytes;
      n->tail = a->data;
      n->ntail = a->ndata;
    } else {
      n->tail = oldval;
      n->ntail = old->nbytes;
    }
  }
  if (mc_item_size(a->nkey, n->nhead + n->ntail) > a->item_max) {
    a->result = MC_TOO_LARGE;
    return;
  }
  a->cas_out = put_item(r, n, old, a->limit, a->evict, a->now);
  a->result = a->cas_out ? MC_OK : MC_NO_MEMORY;
}

struct get_args {
  mc_root *root;
  int64_t now;
  const char *key;
  size_t nkey;
  uint64_t hv;
  int touch;
  int64_t exptime;
  char *out;
  /* results */
  mc_result result;
  uint32_t flags;
  size_t ndata;
  uint64_t cas;
  mc_item **pp;
};

static void get_tx(struct get_args *a) {
  mc_root *r = a->root;
  mc_item *it = lookup(r, a->key, a->nkey, a->hv, a->now, &a->pp);
  if (!it) {
    a->result = MC_NOT_FOUND;
    return;
  }
  if (a->touch)
    it->exptime = a->exptime;
  if (a->now - it->last_access >= LRU_BUMP_INTERVAL) {
    lru_remove(r, it);
    lru_push(r, it, a->now);
  }
  a->result = MC_OK;
  a->flags = it->flags;
  a->ndata = it->nbytes;
  a->cas = it->cas;
  copy_out(a->out, it->data + it->nkey, it->nbytes);
}

struct key_args {
  mc_root *root;
  int64_t now;
  const char *key;
  size_t nkey;
  uint64_t hv;
  int64_t exptime;
  mc_result result;
  mc_item **pp;
};

static void delete_tx(struct key_args *a) {
  if (lookup(a->root, a->key, a->nkey, a->hv, a->now, &a->pp)) {
    remove_item(a->root, a->pp);
    a->result = MC_OK;
  } else {
    a->result = MC_NOT_FOUND;
  }
}

static void touch_tx(struct key_args *a) {
  mc_item *it = lookup(a->root, a->key, a->nkey, a->hv, a->now, &a->pp);
  if (it)
    it->exptime = a->exptime;
  a->result = it ? MC_OK : MC_NOT_FOUND;
}

/* The decimal value of an item: digits, then optional spaces (memcached
 * pads a shortened in-place result with spaces). */
static int parse_counter(const char *s, size_t n, uint64_t *out) {
  uint64_t v = 0;
  size_t i = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
    uint64_t d = (uint64_t)(s[i] - '0');
    if (v > (UINT64_MAX - d) / 10)
      return 0;
    v = v * 10 + d;
  }
  if (i == 0)
    return 0;
  for (; i < n; i++)
    if (s[i] != ' ')
      return 0;
  *out = v;
  return 1;
}

static size_t format_counter(uint64_t v, char *buf) {
  size_t n = 1;
  for (uint64_t t = v / 10; t; t /= 10)
    n++;
  for (size_t i = n; i-- > 0; v /= 10)
    buf[i] = (char)('0' + v % 10);
  return n;
}

struct arith_args {
  mc_root *root;
  uint64_t limit;
  int evict;
  int64_t now;
  const char *key;
  size_t nkey;
  uint64_t hv;
  int incr;
  uint64_t delta;
  int create;
  uint64_t initial;
  uint32_t flags;
  int64_t exptime;
  /* results */
  mc_result result;
  uint64_t value, cas;
  /* scratch written inside the transaction (see WORKSPACE) */
  mc_item **pp;
  struct new_item n;
  char digits[24];
};

static void arith_tx(struct arith_args *a) {
  mc_root *r = a->root;
  mc_item *old = lookup(r, a->key, a->nkey, a->hv, a->now, &a->pp);
  struct new_item *n = &a->n;
  *n = (struct new_item){a->key,    a->nkey, a->hv, a->flags, a->exptime,
                         a->digits, 0,       NULL,  0};
  if (!old) {
    if (!a->create) {
      a->result = MC_NOT_FOUND;
      return;
    }
    a->value = a->initial;
  } else {
    if (old->nbytes > 20 + 4 ||
        !parse_counter(old->data + old->nkey, old->nbytes, &a->value)) {
      a->result = MC_NON_NUMERIC;
      return;
    }
    if (a->incr)
      a->value += a->delta; /* wraps at 2^64, as memcached */
    else
      a->value = a->value < a->delta ? 0 : a->value - a->delta;
    n->flags = old->flags;
    n->exptime = old->exptime;
  }
  n->nhead = format_counter(a->value, a->digits);
  a->cas = put_item(r, n, old, a->limit, a->evict, a->now);
  a->result = a->cas ? MC_OK : MC_NO_MEMORY;
}

struct flush_args {
  mc_root *root;
  int64_t now, delay;
};

static void flush_tx(struct flush_args *a) {
  if (a->delay > 0) {
    /* memcached: items stored up to now + delay - 1 are invalid from then */
    a->root->flush_at = a->now + a->delay - 1;
  } else {
    a->root->flush_cas = a->root->cas_counter;
    a->root->flush_at = 0;
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
}

struct init_args {
  mc_root *root;
  uint64_t nbuckets;
  int result; /* 0 ok, 1 created, -1 foreign root, -2 no memory */
};

static void init_tx(struct init_args *a) {
  mc_root *r = a->root;
  a->result = 0;
  if (r->magic == MC_ROOT_MAGIC)
    return;
  if (r->magic != 0) {
    a->result = -1;
    return;
  }
  mc_item **b = ptm_calloc(a->nbuckets, sizeof *b);
  if (!b) {
    a->result = -2;
    return;
  }
  r->buckets = b;
  r->nbuckets = a->nbuckets;
  r->cas_counter = 0;
  r->magic = MC_ROOT_MAGIC;
  a->result = 1;
}

/* ---- The operations --------------------------------------------------------
 */

mc_result mc_store(mc_store_op op, const char *key, size_t nkey, uint32_t flags,
                   int64_t exptime, const char *data, size_t ndata,
                   uint64_t cas_in, uint64_t *cas_out) {
  if (mc_item_size(nkey, ndata) > g_item_max)
    return MC_TOO_LARGE;
  struct store_args a = {.root = g_root,
                         .limit = g_mem_limit,
                         .item_max = g_item_max,
                         .evict = g_evict,
                         .now = mc_now(),
                         .op = op,
                         .key = key,
                         .nkey = nkey,
                         .hv = mc_hash(key, nkey),
                         .flags = flags,
                         .exptime = exptime,
                         .data = data,
                         .ndata = ndata,
                         .cas_in = cas_in};
  PTM_BEGIN();
  store_tx(&a);
  PTM_END();
  if (cas_out)
    *cas_out = a.cas_out;
  return a.result;
}

mc_result mc_get(const char *key, size_t nkey, int touch, int64_t exptime,
                 char *out, uint32_t *flags, size_t *ndata, uint64_t *cas) {
  struct get_args a = {.root = g_root,
                       .now = mc_now(),
                       .key = key,
                       .nkey = nkey,
                       .hv = mc_hash(key, nkey),
                       .touch = touch,
                       .exptime = exptime,
                       .out = out};
  PTM_BEGIN();
  get_tx(&a);
  PTM_END();
  *flags = a.flags;
  *ndata = a.ndata;
  *cas = a.cas;
  return a.result;
}

mc_result mc_delete(const char *key, size_t nkey) {
  struct key_args a = {.root = g_root,
                       .now = mc_now(),
                       .key = key,
                       .nkey = nkey,
                       .hv = mc_hash(key, nkey)};
  PTM_BEGIN();
  delete_tx(&a);
  PTM_END();
  return a.result;
}

mc_result mc_touch(const char *key, size_t nkey, int64_t exptime) {
  struct key_args a = {.root = g_root,
                       .now = mc_now(),
                       .key = key,
                       .nkey = nkey,
                       .hv = mc_hash(key, nkey),
                       .exptime = exptime};
  PTM_BEGIN();
  touch_tx(&a);
  PTM_END();
  return a.result;
}

mc_result mc_arith(const char *key, size_t nkey, int incr, uint64_t delta,
                   int create, uint64_t initial, uint32_t flags,
                   int64_t exptime, uint64_t *value, uint64_t *cas) {
  struct arith_args a = {.root = g_root,
                         .limit = g_mem_limit,
                         .evict = g_evict,
                         .now = mc_now(),
                         .key = key,
                         .nkey = nkey,
                         .hv = mc_hash(key, nkey),
                         .incr = incr,
                         .delta = delta,
                         .create = create,
                         .initial = initial,
                         .flags = flags,
                         .exptime = exptime};
  PTM_BEGIN();
  arith_tx(&a);
  PTM_END();
  *value = a.value;
  if (cas)
    *cas = a.cas;
  return a.result;
}

void mc_flush_all(int64_t delay) {
  struct flush_args a = {.root = g_root, .now = mc_now(), .delay = delay};
  PTM_BEGIN();
  flush_tx(&a);
  PTM_END();
}

void mc_store_stats_get(mc_store_stats *out) {
  memset(out, 0, sizeof *out);
  PTM_BEGIN();
  stats_tx(out);
  PTM_END();
  out->mem_limit = g_mem_limit;
  out->item_max = g_item_max;
  out->persistent = g_persistent;
  out->recovered = g_recovered;
}

/* ---- Opening and checking --------------------------------------------------
 * Before the workers start: one thread, recovery done, plain reads. */

static int check_structure(const mc_root *r, char *err, size_t errlen) {
  uint64_t count = 0, bytes = 0;
  for (uint64_t b = 0; b < r->nbuckets; b++) {
    for (const mc_item *it = r->buckets[b]; it; it = it->hnext) {
      if (it->nkey == 0 || it->nkey > MC_KEY_MAX ||
          (it->hash & (r->nbuckets - 1)) != b ||
          mc_hash(it->data, it->nkey) != it->hash || it->cas == 0 ||
          it->cas > r->cas_counter) {
        snprintf(err, errlen, "damaged item in bucket %llu",
                 (unsigned long long)b);
        return -1;
      }
      if (++count > r->curr_items)
        break;
      bytes += mc_item_size(it->nkey, it->nbytes);
    }
  }
  uint64_t lru = 0;
  const mc_item *prev = NULL;
  for (const mc_item *it = r->lru_head; it && lru <= count;
       prev = it, it = it->lru_next, lru++)
    if (it->lru_prev != prev)
      break;
  if (count != r->curr_items || lru != count || prev != r->lru_tail ||
      bytes != r->mem_used) {
    snprintf(err, errlen,
             "inconsistent cache: %llu items in the hash table, %llu in the "
             "LRU list, %llu counted; %llu bytes, %llu counted",
             (unsigned long long)count, (unsigned long long)lru,
             (unsigned long long)r->curr_items, (unsigned long long)bytes,
             (unsigned long long)r->mem_used);
    return -1;
  }
  return 0;
}

static int library_is_persistent(void) {
  const char *name = ptm_algorithm();
  return strncmp(name, "p_", 2) == 0 || strncmp(name, "gp_", 3) == 0 ||
         strncmp(name, "ip_", 3) == 0;
}

/* The p_ libraries log every written word, values included, and a pool
 * thread slot holds 8190 words: their items are limited to 48 KiB. */
#define NAIVE_ITEM_MAX (48u << 10)

int mc_store_open(const mc_store_config *cfg, char *err, size_t errlen) {
  g_mem_limit = cfg->mem_limit;
  g_item_max = cfg->item_max;
  g_evict = cfg->evict;
  g_persistent = library_is_persistent();
  if (strncmp(ptm_algorithm(), "p_", 2) == 0 && g_item_max > NAIVE_ITEM_MAX) {
    if (cfg->verbose)
      fprintf(stderr,
              "ptm-memcached: library %s logs every word: item size limit "
              "lowered to %u bytes\n",
              ptm_algorithm(), NAIVE_ITEM_MAX);
    g_item_max = NAIVE_ITEM_MAX;
  }
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
  } else if (cfg->pool) {
    struct stat st;
    int exists = stat(cfg->pool, &st) == 0;
    int rc = ptm_open(cfg->pool, exists ? 0 : cfg->pool_size);
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
  uint64_t nbuckets = 1024;
  while (nbuckets < (1u << 24) && nbuckets * 256 < cfg->mem_limit)
    nbuckets *= 2;
  struct init_args a = {.root = r, .nbuckets = nbuckets};
  PTM_BEGIN();
  init_tx(&a);
  PTM_END();
  if (a.result == -1) {
    snprintf(err, errlen,
             "the pool's root object is not a ptm-memcached cache (magic "
             "%#llx)",
             (unsigned long long)r->magic);
    return -1;
  }
  if (a.result == -2) {
    snprintf(err, errlen, "the pool has no room for %llu hash buckets",
             (unsigned long long)nbuckets);
    return -1;
  }
  if (check_structure(r, err, errlen) != 0)
    return -1;
  g_root = r;
  g_recovered = a.result == 1 ? 0 : r->curr_items;
  if (cfg->verbose)
    fprintf(stderr,
            "ptm-memcached: library %s, %s cache, %llu items (%llu bytes) "
            "%s, %llu hash buckets\n",
            ptm_algorithm(), g_persistent ? "persistent" : "volatile",
            (unsigned long long)r->curr_items, (unsigned long long)r->mem_used,
            a.result == 1 ? "(new)" : "recovered",
            (unsigned long long)r->nbuckets);
  return 0;
}
