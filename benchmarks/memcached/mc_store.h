/*
 * mc_store.h - the cache of ptm-memcached: items, hash table, LRU list and
 * memory accounting, all in the ptm pool (the ordinary heap under an STM
 * library), changed only inside transactions (docs/memcached.md).
 *
 * Every function below except mc_store_open runs one transaction and may be
 * called by any number of threads at once. Keys and values are private
 * buffers of the caller; they are copied into and out of the pool inside the
 * transaction, so a result is acknowledged only after the transaction
 * committed.
 */
#ifndef MC_STORE_H
#define MC_STORE_H

#include <ptm.h>
#include <stddef.h>
#include <stdint.h>

#define MC_KEY_MAX 250

/* Threads of the server besides its workers that run transactions, each
 * holding one of the pool's thread slots while it lives: the main thread
 * (accept, UDP, start-up), the hash table's maintainer, and the runtime's
 * persister under buffered durability. */
#define MC_SERVICE_THREADS 3
/* Workers (-t) a pool can have slots for. */
#define MC_MAX_WORKERS (PTM_MAX_POOL_SLOTS - MC_SERVICE_THREADS)

typedef enum {
  MC_OK,          /* stored, deleted, touched, found */
  MC_NOT_STORED,  /* add of a present key, replace/append of a missing one */
  MC_EXISTS,      /* cas mismatch */
  MC_NOT_FOUND,   /* missing key (cas, delete, touch, incr) */
  MC_NON_NUMERIC, /* incr/decr of a value that is not a decimal number */
  MC_TOO_LARGE,   /* item larger than the item size limit */
  MC_NO_MEMORY    /* -m reached and nothing could be evicted (-M) */
} mc_result;

typedef enum {
  MC_SET,
  MC_ADD,
  MC_REPLACE,
  MC_APPEND,
  MC_PREPEND,
  MC_CAS
} mc_store_op;

typedef struct mc_store_config {
  const char *pool;   /* pool file, NULL: PTM_POOL or a temporary pool */
  uint64_t pool_size; /* size of a new pool file */
  uint64_t mem_limit; /* -m, bytes of items */
  uint64_t item_max;  /* -I, bytes of one item (key + value + header) */
  int evict;          /* 0 with -M: out of memory instead of evicting */
  int verbose;        /* -v */
  /* --durability (set as PTM_DURABILITY), NULL: the environment's */
  const char *durability;
  /* --pool-mode (set as PTM_POOL_MODE), NULL: the environment's */
  const char *pool_mode;
  /* -o hashpower=N: log2 of a new cache's bucket count (0: from -m) */
  int hash_power;
  /* -o no_hashexpand: the bucket array keeps its size */
  int no_hash_expand;
  /* -t: worker threads; the pool needs a thread slot for each of them and
   * for MC_SERVICE_THREADS */
  int threads;
  /* -n and -f: memcached's slab class table (the size classes items are
   * counted under) */
  int chunk_min;
  double growth_factor;
  /* memcached-debug's T_MEMD_INITIAL_MALLOC: bytes counted as handed out
   * before the first slab page (0: none) */
  uint64_t malloc_base;
} mc_store_config;

/* What the store keeps across restarts (persistent pools) and its figures. */
typedef struct mc_store_stats {
  uint64_t curr_items, total_items, bytes, evictions, reclaimed, expired;
  uint64_t mem_limit, item_max;
  int persistent;      /* 1: items live in a pool file */
  uint64_t recovered;  /* items found in the pool at start */
  int buffered_ms;     /* buffered durability: its interval; 0: strict */
  uint64_t hash_bytes; /* the bucket array */
  int hash_power;      /* log2 of the bucket count */
  int hash_expanding;  /* 1 while the bucket array grows */
  /* the slab pages handed out, in bytes (memcached's total_malloced) */
  uint64_t total_malloced;
} mc_store_stats;

/* Opens the pool and the cache inside it (created on first use) and checks
 * its structure. 0, or -1 with a message in ERR. */
int mc_store_open(const mc_store_config *cfg, char *err, size_t errlen);
/* mc_store_open's result when another process has the pool open */
#define MC_STORE_IN_USE (-2)

/* Stops the thread that grows the hash table (before ptm_close); an
 * expansion in progress resumes at the next open. */
void mc_store_close(void);

/* Tests: 1 once the expansion is held by PTM_MC_TEST_EXPAND_STEPS, 0 before;
 * -1 without that hook. */
int mc_store_test_expand_held(void);

/* Size classes (mc_store.c): the class of an item of SIZE bytes
 * (mc_item_size), and each class's chunk size and counters. */
int mc_store_class_of(uint64_t size);
typedef struct mc_class_stats {
  uint64_t chunk_size, number, bytes, evicted, evicted_nonzero, reclaimed,
      crawler_reclaimed, expired, stored;
  /* slab pages (mc_store.c, "Slab pages"): chunks per page, the class's
   * pages, the chunks its items occupy */
  uint64_t per_page, pages, chunks;
} mc_class_stats;
/* Fills OUT[1..63] (one transaction); returns the largest class. */
int mc_store_class_stats(mc_class_stats out[64]);
/* stats reset: the classes' evicted, reclaimed and expired counters. */
void mc_store_class_reset(void);

/* The item size limit actually enforced (cfg->item_max, lowered for
 * libraries whose log cannot hold a large item; see mc_store.c). */
uint64_t mc_store_item_max(void);

/* 1 if an item with an NKEY-byte key and an NBYTES-byte value fits the item
 * size limit. */
int mc_item_size_ok(size_t nkey, uint64_t nbytes);

/* The hash of a key (computed outside transactions). */
uint64_t mc_hash(const char *key, size_t nkey);

/* What a store's lookup of its key found before the store changed anything
 * (watch's fetchers, mc_watch.h): MC_PRIOR_* in the low two bits (the order
 * of memcached's item_get statuses), the found item's value length above. */
enum { MC_PRIOR_ABSENT, MC_PRIOR_FOUND, MC_PRIOR_FLUSHED, MC_PRIOR_EXPIRED };
#define MC_PRIOR_STATUS(p) ((p) & 3u)
#define MC_PRIOR_NBYTES(p) ((uint64_t)(p) >> 2)
#define MC_PRIOR(status, nbytes) ((uint32_t)(status) | (uint32_t)(nbytes) << 2)

/* set/add/replace/append/prepend/cas. EXPTIME is absolute (unix seconds, 0:
 * never, <0: already expired); CAS_IN for MC_CAS; *CAS_OUT gets the new
 * item's cas; *PRIOR (if PRIOR is not NULL) what the key's lookup found. */
mc_result mc_store(mc_store_op op, const char *key, size_t nkey, uint32_t flags,
                   int64_t exptime, const char *data, size_t ndata,
                   uint64_t cas_in, uint64_t *cas_out, uint32_t *prior);

/* Why a get missed: no item, or an item that had expired or was flushed. */
enum { MC_MISS_ABSENT, MC_MISS_EXPIRED, MC_MISS_FLUSHED };

/* Looks KEY up; on a hit copies its value into OUT (at least
 * mc_store_item_max() bytes) and sets *FLAGS, *NDATA, *CAS. With TOUCH, the
 * item's expiry becomes EXPTIME (gat). MC_OK, or MC_NOT_FOUND with *FLAGS
 * one of MC_MISS_*. */
mc_result mc_get(const char *key, size_t nkey, int touch, int64_t exptime,
                 char *out, uint32_t *flags, size_t *ndata, uint64_t *cas);

/* The MC_PRIOR of mc_get's result R, FLAGS and NDATA. */
static inline uint32_t mc_get_prior(mc_result r, uint32_t flags, size_t ndata) {
  if (r == MC_OK)
    return MC_PRIOR(MC_PRIOR_FOUND, ndata);
  return flags == MC_MISS_EXPIRED   ? MC_PRIOR_EXPIRED
         : flags == MC_MISS_FLUSHED ? MC_PRIOR_FLUSHED
                                    : MC_PRIOR_ABSENT;
}

mc_result mc_delete(const char *key, size_t nkey);
/* delete, telling the removed item's value length (*NBYTES, when found). */
mc_result mc_delete_item(const char *key, size_t nkey, uint64_t *nbytes);
mc_result mc_touch(const char *key, size_t nkey, int64_t exptime);

/* incr (INCR=1) / decr by DELTA: *VALUE gets the new value. With CREATE a
 * missing key is created with INITIAL, FLAGS and EXPTIME (binary protocol). */
mc_result mc_arith(const char *key, size_t nkey, int incr, uint64_t delta,
                   int create, uint64_t initial, uint32_t flags,
                   int64_t exptime, uint64_t *value, uint64_t *cas);

/* Every item stored before now (DELAY 0) or before now + DELAY becomes
 * invalid at that time. */
void mc_flush_all(int64_t delay);

void mc_store_stats_get(mc_store_stats *out);

/* cache_memlimit: the new -m in bytes, used by the next stores (a lower
 * one evicts as they need room; the wholly free slab pages beyond the
 * pages it allows go back, now and as deletions free more). 0. */
int mc_store_set_mem_limit(uint64_t bytes);

/* ---- The meta protocol (mc_meta.c) ---- */

/* mg's options: T (new TTL), N (create a missing item, empty, with this
 * TTL), R (win the recache when the TTL is below), u (no LRU bump), v, E
 * (the cas of an item N creates; 0 none). */
typedef struct mc_meta_get_opts {
  int touch, vivify, recache, no_bump, want_value;
  int64_t touch_exptime, vivify_exptime, recache_exptime; /* absolute */
  uint64_t vivify_cas;
} mc_meta_get_opts;

/* What mg learned: STATE is the item's MC_ITEM_* bits before this request
 * (h: fetched, Z: token sent, X: stale); WON: this client wins (W). */
typedef struct mc_meta_item {
  int found, created, won;
  uint32_t state, flags;
  uint64_t cas, nbytes;
  int64_t exptime, last_access;
} mc_meta_item;

/* mg: one transaction; the value (with want_value) is copied into OUT. */
void mc_meta_get(const char *key, size_t nkey, const mc_meta_get_opts *o,
                 char *out, mc_meta_item *res);
/* The meta E flag (ECAS below; 0: none): the cas a changed item gets is
 * the client's, kept beside the store order (mc_layout.h,
 * MC_ITEM_CLIENT_CAS); cas values are > 0, so E0 is refused. */

/* ms: OP, with HAVE_CAS a cas store of CAS_IN; INVALIDATE: I; ECAS: E;
 * *PRIOR as mc_store's. */
mc_result mc_meta_set(const char *key, size_t nkey, mc_store_op op,
                      uint32_t flags, int64_t exptime, const char *data,
                      size_t ndata, int have_cas, uint64_t cas_in,
                      int invalidate, uint64_t ecas, uint64_t *cas_out,
                      uint32_t *prior);
/* md: delete; with REMOVE_VALUE (x) replace the value with an empty one
 * (FLAGS, the TTL TOUCH_EXPTIME with TOUCH, else none) keeping the cas (or
 * ECAS); with INVALIDATE (I) mark stale (and a new TTL with TOUCH), the
 * item then getting a new cas, ECAS or the next one. *REMOVED: the value
 * length of an item it removed or emptied, else 0. */
mc_result mc_meta_delete(const char *key, size_t nkey, int have_cas,
                         uint64_t cas_in, int invalidate, int touch,
                         int64_t touch_exptime, int remove_value,
                         uint32_t flags, uint64_t ecas, uint64_t *removed);
/* ma: incr/decr, with HAVE_CAS only if the item's cas is CAS_IN, and a new
 * TTL with TOUCH; ECAS: the new value's cas. */
mc_result mc_meta_arith(const char *key, size_t nkey, int incr, uint64_t delta,
                        int create, uint64_t initial, int64_t create_exptime,
                        int have_cas, uint64_t cas_in, int touch,
                        int64_t touch_exptime, uint64_t ecas, uint64_t *value,
                        uint64_t *cas);

/* One live item's metadata (cachedump, lru_crawler metadump). */
typedef struct mc_dump_entry {
  char key[MC_KEY_MAX];
  uint32_t nkey, flags;
  int64_t exptime, last_access; /* unix seconds; exptime 0: never */
  uint64_t cas, nbytes;
  uint64_t size; /* the item's block (mc_item_bytes) */
} mc_dump_entry;

/* Copies the live items of the hash buckets from *CURSOR on into OUT (at
 * most MAX, whole buckets unless one bucket alone holds more, one
 * transaction) and advances *CURSOR; a walk starts at 0 and is over when
 * *CURSOR is UINT64_MAX. Returns the entries filled. */
size_t mc_store_dump(uint64_t *cursor, mc_dump_entry *out, size_t max);

/* The crawler: removes the expired and flushed items of the next buckets
 * from *CURSOR (one transaction), adding the items seen and removed to
 * *CHECKED and *REMOVED. 1 while buckets are left (*CURSOR then is the
 * next one), 0 at the end. */
int mc_store_crawl(uint64_t *cursor, uint64_t *checked, uint64_t *removed);

/* Seconds since the epoch, the clock of expiry times. */
int64_t mc_now(void);
/* Moves that clock forward (memcached-debug's debugtime, for tests). */
void mc_clock_advance(int64_t seconds);

#endif /* MC_STORE_H */
