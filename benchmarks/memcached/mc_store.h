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

#include <stddef.h>
#include <stdint.h>

#define MC_KEY_MAX 250

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
} mc_store_config;

/* What the store keeps across restarts (persistent pools) and its figures. */
typedef struct mc_store_stats {
  uint64_t curr_items, total_items, bytes, evictions, reclaimed, expired;
  uint64_t mem_limit, item_max;
  int persistent;     /* 1: items live in a pool file */
  uint64_t recovered; /* items found in the pool at start */
  int buffered_ms;    /* buffered durability: its interval; 0: strict */
} mc_store_stats;

/* Opens the pool and the cache inside it (created on first use) and checks
 * its structure. 0, or -1 with a message in ERR. */
int mc_store_open(const mc_store_config *cfg, char *err, size_t errlen);

/* The item size limit actually enforced (cfg->item_max, lowered for
 * libraries whose log cannot hold a large item; see mc_store.c). */
uint64_t mc_store_item_max(void);

/* 1 if an item with an NKEY-byte key and an NBYTES-byte value fits the item
 * size limit. */
int mc_item_size_ok(size_t nkey, uint64_t nbytes);

/* The hash of a key (computed outside transactions). */
uint64_t mc_hash(const char *key, size_t nkey);

/* set/add/replace/append/prepend/cas. EXPTIME is absolute (unix seconds, 0:
 * never, <0: already expired); CAS_IN for MC_CAS; *CAS_OUT gets the new
 * item's cas. */
mc_result mc_store(mc_store_op op, const char *key, size_t nkey, uint32_t flags,
                   int64_t exptime, const char *data, size_t ndata,
                   uint64_t cas_in, uint64_t *cas_out);

/* Looks KEY up; on a hit copies its value into OUT (at least
 * mc_store_item_max() bytes) and sets *FLAGS, *NDATA, *CAS. With TOUCH, the
 * item's expiry becomes EXPTIME (gat). MC_OK or MC_NOT_FOUND. */
mc_result mc_get(const char *key, size_t nkey, int touch, int64_t exptime,
                 char *out, uint32_t *flags, size_t *ndata, uint64_t *cas);

mc_result mc_delete(const char *key, size_t nkey);
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

/* Seconds since the epoch, the clock of expiry times. */
int64_t mc_now(void);

#endif /* MC_STORE_H */
