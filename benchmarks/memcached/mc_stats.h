/*
 * mc_stats.h - the server's volatile counters (the cache's own figures are
 * in the pool: mc_store_stats). Relaxed atomic adds, outside transactions.
 */
#ifndef MC_STATS_H
#define MC_STATS_H

#include <stdatomic.h>
#include <stdint.h>

typedef struct mc_counters {
  _Atomic uint64_t cmd_get, cmd_set, cmd_touch, cmd_flush;
  _Atomic uint64_t get_hits, get_misses, get_expired, get_flushed;
  _Atomic uint64_t delete_hits, delete_misses;
  _Atomic uint64_t incr_hits, incr_misses, decr_hits, decr_misses;
  _Atomic uint64_t cas_hits, cas_misses, cas_badval;
  _Atomic uint64_t touch_hits, touch_misses;
  _Atomic uint64_t curr_connections, total_connections, rejected_connections;
  _Atomic uint64_t bytes_read, bytes_written;
  _Atomic uint64_t idle_kicks, auth_cmds, auth_errors, cmd_meta, conn_yields;
  _Atomic uint64_t crawler_reclaimed, crawler_items_checked;
  _Atomic uint64_t store_too_large, store_no_memory;
  /* watch (mc_watch.c): events passed on, events lost before reaching the
   * watchers, lines queued to watchers, lines skipped (full buffer) */
  _Atomic uint64_t log_worker_written, log_worker_dropped;
  _Atomic uint64_t log_watcher_sent, log_watcher_skipped;
} mc_counters;

extern mc_counters mc_stat;

#define MC_COUNT(field, n)                                                     \
  atomic_fetch_add_explicit(&mc_stat.field, (n), memory_order_relaxed)

typedef struct mc_settings {
  int port;
  const char *listen;
  int threads;
  uint64_t mem_limit;
  uint64_t item_max;
  int max_conns;
  int verbose;
  int evict;
  const char *pool;
  uint64_t pool_size;
  const char *pool_mode;  /* --pool-mode, NULL: not given */
  const char *durability; /* --durability, NULL: not given */
  /* memcached's further options (mc_options.c) */
  const char *unix_socket;     /* -s: listen there instead of TCP */
  int unix_mask;               /* -a, octal */
  int udp_port;                /* -U, 0: off */
  int backlog;                 /* -b */
  int protocol;                /* -B: MC_PROTO_UNKNOWN (auto), _TEXT, _BINARY */
  int cas_enabled;             /* not -C */
  int reqs_per_event;          /* -R */
  int daemonize;               /* -d */
  const char *pidfile;         /* -P */
  int shutdown_enabled;        /* -A */
  int flush_enabled;           /* not -F */
  int dump_enabled;            /* not -X */
  int watch_enabled;           /* not -W */
  int watcher_buf_kb;          /* -o watcher_logbuf_size, KiB per watcher */
  const char *auth_file;       /* -Y */
  int idle_timeout;            /* -o idle_timeout, seconds, 0: none */
  uint64_t read_buf_mem_limit; /* -o read_buf_mem_limit, MB, 0: none */
  int hash_power_init;         /* -o hashpower, 0: sized by -m */
  int no_hash_expand;          /* -o no_hashexpand */
  char prefix_delimiter;       /* -D */
  int detail_enabled;          /* stats detail on|off */
  int lru_crawler;             /* lru_crawler enable|disable (-o lru_crawler) */
  double growth_factor;        /* -f: the size classes of stats items/slabs */
  int chunk_size;              /* -n: the size classes of stats items/slabs */
  /* memcached-debug's T_MEMD_INITIAL_MALLOC (only with PTM_MEMCACHED_DEBUG=1):
   * bytes counted as handed out before the first slab page */
  uint64_t malloc_base;
} mc_settings;

extern mc_settings mc_config;
extern int64_t mc_started;

/* Appends the `stats` reply for ARGS ("" for the general statistics) in the
 * text form (STAT name value lines, END). 0, or -1 for an unknown group. */
struct mc_conn;
int mc_stats_text(struct mc_conn *c, const char *args);
/* Calls EMIT(name, value, ctx) for every general statistic. */
void mc_stats_each(void (*emit)(const char *, const char *, void *), void *ctx,
                   const char *group);
void mc_stats_reset(void);

#define MC_VERSION "1.6.45-ptm"

#endif /* MC_STATS_H */
