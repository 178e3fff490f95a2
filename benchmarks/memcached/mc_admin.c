/*
 * mc_admin.c - memcached's administrative text commands that are not cache
 * operations: stats detail (per key prefix counters), stats cachedump,
 * lru_crawler (crawl: remove dead items; metadump: list every item),
 * cache_memlimit, and the tuning commands of parts ptm-memcached does not
 * have (slabs, lru), answered as memcached answers them.
 */
#include "mc_conn.h"
#include "mc_layout.h"
#include "mc_stats.h"
#include "mc_store.h"
#include "mc_text.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* ---- stats detail: counters per key prefix (volatile, one lock) ---------- */

#define PREFIX_BUCKETS 256

typedef struct prefix {
  struct prefix *next;
  uint64_t get, hit, set, del;
  size_t n;
  char name[];
} prefix;

static pthread_mutex_t prefix_lock = PTHREAD_MUTEX_INITIALIZER;
static prefix *prefixes[PREFIX_BUCKETS];
static size_t nprefixes;

void mc_prefix_record(const char *key, size_t nkey, int what, int hit) {
  if (!__atomic_load_n(&mc_config.detail_enabled, __ATOMIC_RELAXED))
    return;
  const char *d = memchr(key, mc_config.prefix_delimiter, nkey);
  if (!d)
    return; /* memcached counts only keys that have a prefix */
  size_t n = (size_t)(d - key);
  unsigned h = 5381;
  for (size_t i = 0; i < n; i++)
    h = h * 33 + (unsigned char)key[i];
  pthread_mutex_lock(&prefix_lock);
  prefix **pp = &prefixes[h % PREFIX_BUCKETS];
  while (*pp && ((*pp)->n != n || memcmp((*pp)->name, key, n) != 0))
    pp = &(*pp)->next;
  if (!*pp && (*pp = calloc(1, sizeof(prefix) + n + 1)) != NULL) {
    memcpy((*pp)->name, key, n);
    (*pp)->n = n;
    nprefixes++;
  }
  if (*pp) {
    prefix *p = *pp;
    if (what == MC_PREFIX_GET) {
      p->get++;
      p->hit += hit != 0;
    } else if (what == MC_PREFIX_SET) {
      p->set++;
    } else {
      p->del++;
    }
  }
  pthread_mutex_unlock(&prefix_lock);
}

void mc_prefix_clear(void) {
  pthread_mutex_lock(&prefix_lock);
  for (int b = 0; b < PREFIX_BUCKETS; b++) {
    while (prefixes[b]) {
      prefix *p = prefixes[b];
      prefixes[b] = p->next;
      free(p);
    }
  }
  nprefixes = 0;
  pthread_mutex_unlock(&prefix_lock);
}

void mc_prefix_dump(mc_conn *c) {
  pthread_mutex_lock(&prefix_lock);
  for (int b = 0; b < PREFIX_BUCKETS; b++)
    for (prefix *p = prefixes[b]; p; p = p->next)
      mc_outf(c,
              "PREFIX %s get %" PRIu64 " hit %" PRIu64 " set %" PRIu64
              " del %" PRIu64 "\r\n",
              p->name, p->get, p->hit, p->set, p->del);
  pthread_mutex_unlock(&prefix_lock);
  mc_out_str(c, "END\r\n");
}

/* ---- Walks over the cache ------------------------------------------------ */

#define DUMP_BATCH 256

/* Calls EACH for every live item, a batch of buckets per transaction; stops
 * when EACH returns 0. */
static void walk(int (*each)(mc_conn *, const mc_dump_entry *, void *),
                 mc_conn *c, void *ctx) {
  mc_dump_entry *batch = malloc(DUMP_BATCH * sizeof *batch);
  if (!batch) {
    mc_out_str(c, "SERVER_ERROR out of memory\r\n");
    return;
  }
  uint64_t cursor = 0;
  while (cursor != UINT64_MAX) {
    size_t n = mc_store_dump(&cursor, batch, DUMP_BATCH);
    for (size_t i = 0; i < n; i++)
      if (!each(c, &batch[i], ctx)) {
        free(batch);
        return;
      }
  }
  free(batch);
}

struct cachedump {
  uint64_t left; /* 0: no limit */
  int limited;
  int cls; /* the size class dumped */
};

static int cachedump_one(mc_conn *c, const mc_dump_entry *e, void *ctx) {
  struct cachedump *d = ctx;
  if (mc_store_class_of(e->size) != d->cls)
    return 1;
  mc_outf(c, "ITEM %.*s [%" PRIu64 " b; %lld s]\r\n", (int)e->nkey, e->key,
          e->nbytes, (long long)e->exptime);
  return !d->limited || --d->left > 0;
}

/* stats cachedump CLASS LIMIT: the items of a size class (mc_store.c). */
static void cachedump(mc_conn *c, mc_token *tok, int ntok) {
  uint64_t cls, limit;
  if (!mc_config.dump_enabled) {
    mc_out_str(c, "CLIENT_ERROR stats cachedump not allowed\r\n");
    return;
  }
  if (ntok != 4 || !mc_tok_u64(&tok[2], &cls) || !mc_tok_u64(&tok[3], &limit)) {
    mc_out_str(c, "CLIENT_ERROR bad command line\r\n");
    return;
  }
  if (cls < 1 || cls > 63) {
    mc_out_str(c, "CLIENT_ERROR Illegal slab id\r\n");
    return;
  }
  struct cachedump d = {limit, limit != 0, (int)cls};
  walk(cachedump_one, c, &d);
  mc_out_str(c, "END\r\n");
}

int mc_admin_stats(mc_conn *c, mc_token *tok, int ntok) {
  if (ntok >= 2 && mc_tok_is(&tok[1], "detail")) {
    if (ntok == 3 && mc_tok_is(&tok[2], "on")) {
      __atomic_store_n(&mc_config.detail_enabled, 1, __ATOMIC_RELAXED);
      mc_out_str(c, "OK\r\n");
    } else if (ntok == 3 && mc_tok_is(&tok[2], "off")) {
      __atomic_store_n(&mc_config.detail_enabled, 0, __ATOMIC_RELAXED);
      mc_out_str(c, "OK\r\n");
    } else if (ntok == 3 && mc_tok_is(&tok[2], "dump")) {
      mc_prefix_dump(c);
    } else {
      mc_out_str(c, "CLIENT_ERROR usage: stats detail on|off|dump\r\n");
    }
    return 1;
  }
  if (ntok >= 2 && mc_tok_is(&tok[1], "cachedump")) {
    cachedump(c, tok, ntok);
    return 1;
  }
  return 0;
}

/* ---- lru_crawler ----------------------------------------------------------
 */

/* KEY URL-encoded into OUT (3 * MC_KEY_MAX + 1 bytes). */
static void uri_encode(const char *key, uint32_t nkey, char *out) {
  static const char hex[] = "0123456789ABCDEF";
  size_t k = 0;
  for (uint32_t i = 0; i < nkey; i++) {
    unsigned char ch = (unsigned char)key[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch >= '0' && ch <= '9') || strchr("-_.~", ch)) {
      out[k++] = (char)ch;
    } else {
      out[k++] = '%';
      out[k++] = hex[ch >> 4];
      out[k++] = hex[ch & 15];
    }
  }
  out[k] = '\0';
}

/* memcached 1.6.45's metadump line: the key URL-encoded, absolute times,
 * the size class, a space before the bare newline. */
static int metadump_one(mc_conn *c, const mc_dump_entry *e, void *ctx) {
  (void)ctx;
  char key[3 * MC_KEY_MAX + 1];
  uri_encode(e->key, e->nkey, key);
  uint64_t size = e->size;
  mc_outf(c,
          "key=%s exp=%lld la=%lld cas=%" PRIu64
          " fetch=no cls=%d size=%" PRIu64 " flags=%" PRIu32 " \n",
          key, e->exptime == 0 ? -1LL : (long long)e->exptime,
          (long long)e->last_access, e->cas, mc_store_class_of(size), size,
          e->flags);
  return 1;
}

/* mgdump: an mg request line for every item (keys that are not printable
 * tokens in base64 with the b flag, as memcached). */
static int mgdump_one(mc_conn *c, const mc_dump_entry *e, void *ctx) {
  (void)ctx;
  int binary = 0;
  for (uint32_t i = 0; i < e->nkey; i++) {
    unsigned char ch = (unsigned char)e->key[i];
    binary |= ch <= ' ' || ch >= 0x7f;
  }
  mc_out_str(c, "mg ");
  if (binary) {
    mc_meta_b64_out(c, e->key, e->nkey);
    mc_out_str(c, " b\r\n");
  } else {
    mc_out(c, e->key, e->nkey);
    mc_out_str(c, "\r\n");
  }
  return 1;
}

/* lru_crawler metadump|mgdump all|hash|CLASS...: OK, a line per live item,
 * then END (EN for mgdump); refused behind pipelined replies. */
static void dump_all(mc_conn *c, int mg) {
  const char *name = mg ? "mgdump" : "metadump";
  if (!mc_config.dump_enabled) {
    mc_outf(c, "ERROR %s not allowed\r\n", mg ? "key dump" : name);
    return;
  }
  if (c->out.len > 0) { /* replies of earlier commands still queued */
    mc_outf(c, "ERROR cannot pipeline other commands before %s\r\n", name);
    return;
  }
  mc_out_str(c, "OK\r\n");
  walk(mg ? mgdump_one : metadump_one, c, NULL);
  mc_out_str(c, mg ? "EN\r\n" : "END\r\n");
}

/* lru_crawler crawl: one pass removing expired and flushed items. It runs
 * in the requesting worker, a bucket batch per transaction, and is over
 * when the reply is sent (lru_crawler_running stays 0). */
static void crawl(void) {
  uint64_t cursor = 0, checked = 0, removed = 0;
  while (mc_store_crawl(&cursor, &checked, &removed))
    ;
  MC_COUNT(crawler_items_checked, checked);
  MC_COUNT(crawler_reclaimed, removed);
}

static void lru_crawler(mc_conn *c, mc_token *tok, int ntok) {
  if (ntok < 2) {
    mc_out_str(c, "ERROR\r\n");
    return;
  }
  mc_token *sub = &tok[1];
  if (mc_tok_is(sub, "crawl") && ntok == 3) {
    crawl();
    mc_out_str(c, "OK\r\n");
  } else if ((mc_tok_is(sub, "metadump") || mc_tok_is(sub, "mgdump")) &&
             ntok == 3) {
    dump_all(c, mc_tok_is(sub, "mgdump"));
  } else if ((mc_tok_is(sub, "enable") || mc_tok_is(sub, "disable")) &&
             ntok == 2) {
    __atomic_store_n(&mc_config.lru_crawler, mc_tok_is(sub, "enable"),
                     __ATOMIC_RELAXED);
    mc_out_str(c, "OK\r\n");
  } else if ((mc_tok_is(sub, "sleep") || mc_tok_is(sub, "tocrawl")) &&
             ntok == 3) {
    uint64_t v;
    if (!mc_tok_u64(&tok[2], &v))
      mc_out_str(c, "CLIENT_ERROR bad command line format\r\n");
    else
      mc_out_str(c, "OK\r\n");
  } else {
    mc_out_str(c, "ERROR\r\n");
  }
}

/* cache_memlimit MB [noreply] */
static void memlimit(mc_conn *c, mc_token *tok, int ntok) {
  uint64_t mb;
  int noreply = ntok == 3 && mc_tok_is(&tok[2], "noreply");
  if (ntok < 2 || !mc_tok_u64(&tok[1], &mb)) {
    mc_out_str(c, "ERROR\r\n");
    return;
  }
  const char *r = "OK\r\n";
  if (mb < 8)
    r = "MEMLIMIT_TOO_SMALL cannot set maxbytes to less than 8m\r\n";
  else if (mb > (1u << 20) || (mb << 20) > mc_config.pool_size / 2 ||
           mc_store_set_mem_limit(mb << 20) != 0)
    r = "MEMLIMIT_ADJUST_FAILED out of bounds or unable to adjust\r\n";
  else
    mc_config.mem_limit = mb << 20;
  if (!noreply)
    mc_out_str(c, r);
}

/* slabs reassign SRC DST: memcached's page mover hands a page of class SRC
 * (-1: any) to class DST. There is no page mover here (items are pool
 * blocks; a class's slab pages are the accounting of -m and stay with it,
 * mc_store.c "Slab pages"): a valid request is answered OK and moves
 * nothing. */
static void slabs_reassign(mc_conn *c, mc_token *tok) {
  int32_t src, dst;
  if (!mc_tok_i32(&tok[2], &src) || !mc_tok_i32(&tok[3], &dst))
    mc_out_str(c, "CLIENT_ERROR bad command line format\r\n");
  else if (src < -1 || src > 63 || src == 0 || dst < 1 || dst > 63)
    mc_out_str(c, "BADCLASS invalid src or dst class id\r\n");
  else if (src == dst)
    mc_out_str(c, "SAME src and dst class are identical\r\n");
  else
    mc_out_str(c, "OK\r\n");
}

/* debugtime SECONDS: memcached-debug's clock shift, for memcached's test
 * suite; only with PTM_MEMCACHED_DEBUG=1 in the environment (else the
 * command does not exist). */
static int debugtime(mc_conn *c, mc_token *tok, int ntok) {
  const char *on = getenv("PTM_MEMCACHED_DEBUG");
  if (!on || strcmp(on, "1") != 0)
    return 0;
  char buf[24], *end;
  if (ntok != 2 || tok[1].n == 0 || tok[1].n >= sizeof buf) {
    mc_out_str(c, "ERROR\r\n");
    return 1;
  }
  memcpy(buf, tok[1].s, tok[1].n);
  buf[tok[1].n] = '\0';
  long long d = strtoll(buf, &end, 10);
  if (*end) {
    mc_out_str(c, "ERROR\r\n");
    return 1;
  }
  mc_clock_advance(d);
  mc_out_str(c, "OK\r\n");
  return 1;
}

int mc_admin_command(mc_conn *c, mc_token *tok, int ntok) {
  if (mc_tok_is(&tok[0], "lru_crawler")) {
    lru_crawler(c, tok, ntok);
  } else if (mc_tok_is(&tok[0], "cache_memlimit")) {
    memlimit(c, tok, ntok);
  } else if (mc_tok_is(&tok[0], "slabs")) {
    /* no slab classes: nothing to move; memcached's answers when off */
    uint64_t level;
    if (ntok >= 2 && mc_tok_is(&tok[1], "automove")) {
      if (ntok != 3 || !mc_tok_u64(&tok[2], &level))
        mc_out_str(c, "CLIENT_ERROR bad command line format\r\n");
      else
        mc_out_str(c, level <= 2 ? "OK\r\n" : "ERROR\r\n");
    } else if (ntok == 4 && mc_tok_is(&tok[1], "reassign"))
      slabs_reassign(c, tok);
    else
      mc_out_str(c, "ERROR\r\n");
  } else if (mc_tok_is(&tok[0], "debugtime")) {
    return debugtime(c, tok, ntok);
  } else if (mc_tok_is(&tok[0], "lru")) {
    mc_out_str(c, ntok >= 3 ? "OK\r\n" : "ERROR\r\n");
  } else {
    return 0;
  }
  return 1;
}
