/*
 * mc_stats.c - the `stats` command's figures: server counters, the cache's
 * figures from the pool, the ptm library's transaction statistics.
 */
#include "mc_stats.h"
#include "mc_conn.h"
#include "mc_store.h"
#include "mc_watch.h"

#include <inttypes.h>
#include <ptm.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

mc_counters mc_stat;
mc_settings mc_config;
int64_t mc_started;

#define LOAD(field) atomic_load_explicit(&mc_stat.field, memory_order_relaxed)

static void emit_u(void (*emit)(const char *, const char *, void *), void *ctx,
                   const char *name, uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%" PRIu64, v);
  emit(name, buf, ctx);
}

typedef void (*emit_fn)(const char *, const char *, void *);

/* memcached 1.6.45's fields of parts ptm-memcached does not have (slab
 * mover, LRU maintainer and crawler, response objects): always zero here
 * (the mover's last busy status: none). */
static const char *const absent_mover[] = {"slab_reassign_rescues",
                                           "slab_reassign_chunk_rescues",
                                           "slab_reassign_inline_reclaim",
                                           "slab_reassign_busy_items",
                                           "slab_reassign_busy_deletes",
                                           "slab_reassign_busy_nomem",
                                           NULL};
static const char *const absent_general[] = {
    "slab_reassign_running", "slabs_moved",          "malloc_fails",
    "unexpected_napi_ids",   "round_robin_fallback", NULL};

static void general(emit_fn emit, void *ctx) {
  int64_t now = mc_now();
  struct rusage ru;
  char buf[64];
  mc_store_stats s;
  mc_store_stats_get(&s);
  getrusage(RUSAGE_SELF, &ru);
  emit_u(emit, ctx, "pid", (uint64_t)getpid());
  emit_u(emit, ctx, "uptime", (uint64_t)(now - mc_started));
  emit_u(emit, ctx, "time", (uint64_t)now);
  emit("version", MC_VERSION, ctx);
  emit("libevent", "epoll", ctx);
  emit_u(emit, ctx, "pointer_size", 8 * sizeof(void *));
  snprintf(buf, sizeof buf, "%ld.%06ld", (long)ru.ru_utime.tv_sec,
           (long)ru.ru_utime.tv_usec);
  emit("rusage_user", buf, ctx);
  snprintf(buf, sizeof buf, "%ld.%06ld", (long)ru.ru_stime.tv_sec,
           (long)ru.ru_stime.tv_usec);
  emit("rusage_system", buf, ctx);
  emit_u(emit, ctx, "max_connections", (uint64_t)mc_config.max_conns);
  emit_u(emit, ctx, "curr_connections", LOAD(curr_connections));
  emit_u(emit, ctx, "total_connections", LOAD(total_connections));
  emit_u(emit, ctx, "rejected_connections", LOAD(rejected_connections));
  emit_u(emit, ctx, "connection_structures", LOAD(curr_connections));
  emit_u(emit, ctx, "response_obj_oom", 0);
  emit_u(emit, ctx, "response_obj_count", 0);
  emit_u(emit, ctx, "response_obj_bytes", 0);
  emit_u(emit, ctx, "read_buf_count", 0);
  emit_u(emit, ctx, "read_buf_bytes", 0);
  emit_u(emit, ctx, "read_buf_bytes_free", 0);
  emit_u(emit, ctx, "read_buf_oom", 0);
  emit_u(emit, ctx, "reserved_fds", 0);
  emit_u(emit, ctx, "cmd_get", LOAD(cmd_get));
  emit_u(emit, ctx, "cmd_set", LOAD(cmd_set));
  emit_u(emit, ctx, "cmd_flush", LOAD(cmd_flush));
  emit_u(emit, ctx, "cmd_touch", LOAD(cmd_touch));
  emit_u(emit, ctx, "cmd_meta", LOAD(cmd_meta));
  emit_u(emit, ctx, "get_hits", LOAD(get_hits));
  emit_u(emit, ctx, "get_misses", LOAD(get_misses));
  emit_u(emit, ctx, "get_expired", LOAD(get_expired));
  emit_u(emit, ctx, "get_flushed", LOAD(get_flushed));
  emit_u(emit, ctx, "delete_misses", LOAD(delete_misses));
  emit_u(emit, ctx, "delete_hits", LOAD(delete_hits));
  emit_u(emit, ctx, "incr_misses", LOAD(incr_misses));
  emit_u(emit, ctx, "incr_hits", LOAD(incr_hits));
  emit_u(emit, ctx, "decr_misses", LOAD(decr_misses));
  emit_u(emit, ctx, "decr_hits", LOAD(decr_hits));
  emit_u(emit, ctx, "cas_misses", LOAD(cas_misses));
  emit_u(emit, ctx, "cas_hits", LOAD(cas_hits));
  emit_u(emit, ctx, "cas_badval", LOAD(cas_badval));
  emit_u(emit, ctx, "touch_hits", LOAD(touch_hits));
  emit_u(emit, ctx, "touch_misses", LOAD(touch_misses));
  emit_u(emit, ctx, "store_too_large", LOAD(store_too_large));
  emit_u(emit, ctx, "store_no_memory", LOAD(store_no_memory));
  emit_u(emit, ctx, "auth_cmds", LOAD(auth_cmds));
  emit_u(emit, ctx, "auth_errors", LOAD(auth_errors));
  if (mc_config.idle_timeout > 0)
    emit_u(emit, ctx, "idle_kicks", LOAD(idle_kicks));
  emit_u(emit, ctx, "bytes_read", LOAD(bytes_read));
  emit_u(emit, ctx, "bytes_written", LOAD(bytes_written));
  emit_u(emit, ctx, "limit_maxbytes", s.mem_limit);
  emit_u(emit, ctx, "accepting_conns", 1);
  emit_u(emit, ctx, "listen_disabled_num", 0);
  emit_u(emit, ctx, "time_in_listen_disabled_us", 0);
  emit_u(emit, ctx, "threads", (uint64_t)mc_config.threads);
  emit_u(emit, ctx, "conn_yields", LOAD(conn_yields));
  emit_u(emit, ctx, "hash_power_level", (uint64_t)s.hash_power);
  emit_u(emit, ctx, "hash_bytes", s.hash_bytes);
  emit_u(emit, ctx, "hash_is_expanding", (uint64_t)s.hash_expanding);
  for (int i = 0; absent_mover[i]; i++)
    emit_u(emit, ctx, absent_mover[i], 0);
  emit("slab_reassign_last_busy_status", "none", ctx);
  for (int i = 0; absent_general[i]; i++)
    emit_u(emit, ctx, absent_general[i], 0);
  emit_u(emit, ctx, "log_worker_dropped", LOAD(log_worker_dropped));
  emit_u(emit, ctx, "log_worker_written", LOAD(log_worker_written));
  emit_u(emit, ctx, "log_watcher_skipped", LOAD(log_watcher_skipped));
  emit_u(emit, ctx, "log_watcher_sent", LOAD(log_watcher_sent));
  emit_u(emit, ctx, "log_watchers", mc_watch_count());
  emit_u(emit, ctx, "bytes", s.bytes);
  emit_u(emit, ctx, "curr_items", s.curr_items);
  emit_u(emit, ctx, "total_items", s.total_items);
  emit_u(emit, ctx, "slab_global_page_pool", 0);
  emit_u(emit, ctx, "expired_unfetched", 0);
  emit_u(emit, ctx, "evicted_unfetched", 0);
  emit_u(emit, ctx, "evictions", s.evictions);
  emit_u(emit, ctx, "reclaimed", s.reclaimed);
  emit_u(emit, ctx, "crawler_reclaimed", LOAD(crawler_reclaimed));
  emit_u(emit, ctx, "crawler_items_checked", LOAD(crawler_items_checked));
  emit_u(emit, ctx, "lrutail_reflocked", 0);
}

/* stats ptm: the pool and the transactions (not in memcached's general
 * group, whose fields clients count). */
static void ptm_group(emit_fn emit, void *ctx) {
  char buf[64];
  mc_store_stats s;
  ptm_stats_t tx;
  mc_store_stats_get(&s);
  ptm_stats(&tx);
  emit("ptm_library", ptm_algorithm(), ctx);
  emit_u(emit, ctx, "ptm_persistent", (uint64_t)s.persistent);
  if (!s.persistent)
    snprintf(buf, sizeof buf, "none");
  else if (s.buffered_ms == 0)
    snprintf(buf, sizeof buf, "strict");
  else
    snprintf(buf, sizeof buf, "buffered:%d", s.buffered_ms);
  emit("ptm_durability", buf, ctx);
  emit_u(emit, ctx, "ptm_recovered_items", s.recovered);
  /* the pool's thread slots (0: no pool, no limit) */
  emit_u(emit, ctx, "ptm_pool_slots", ptm_pool_slots());
  int held = mc_store_test_expand_held();
  if (held >= 0) /* (the test hook PTM_MC_TEST_EXPAND_STEPS only) */
    emit_u(emit, ctx, "ptm_test_expand_held", (uint64_t)held);
  emit_u(emit, ctx, "ptm_expired", s.expired);
  emit_u(emit, ctx, "ptm_commits", tx.commits);
  emit_u(emit, ctx, "ptm_aborts", tx.aborts);
  emit_u(emit, ctx, "ptm_clwb", tx.clwb);
  emit_u(emit, ctx, "ptm_sfence", tx.sfence);
}

static const char *yes_no(int v) { return v ? "yes" : "no"; }

static void settings(emit_fn emit, void *ctx) {
  char buf[64];
  emit_u(emit, ctx, "maxbytes", mc_config.mem_limit);
  emit_u(emit, ctx, "maxconns", (uint64_t)mc_config.max_conns);
  emit_u(emit, ctx, "tcpport",
         (uint64_t)(mc_config.port > 0 ? mc_config.port : 0));
  emit_u(emit, ctx, "udpport",
         (uint64_t)(mc_config.udp_port > 0 ? mc_config.udp_port : 0));
  emit("inter", mc_config.listen, ctx);
  emit_u(emit, ctx, "verbosity", (uint64_t)mc_config.verbose);
  emit_u(emit, ctx, "oldest", 0);
  emit("evictions", mc_config.evict ? "on" : "off", ctx);
  emit("domain_socket", mc_config.unix_socket ? mc_config.unix_socket : "NULL",
       ctx);
  snprintf(buf, sizeof buf, "%o", (unsigned)mc_config.unix_mask);
  emit("umask", buf, ctx);
  emit("shutdown_command", yes_no(mc_config.shutdown_enabled), ctx);
  snprintf(buf, sizeof buf, "%.2f", mc_config.growth_factor);
  emit("growth_factor", buf, ctx);
  emit_u(emit, ctx, "chunk_size", (uint64_t)mc_config.chunk_size);
  emit_u(emit, ctx, "num_threads", (uint64_t)mc_config.threads);
  emit_u(emit, ctx, "num_threads_per_udp", (uint64_t)mc_config.threads);
  snprintf(buf, sizeof buf, "%c", mc_config.prefix_delimiter);
  emit("stat_key_prefix", buf, ctx);
  emit("detail_enabled", yes_no(mc_config.detail_enabled), ctx);
  emit_u(emit, ctx, "reqs_per_event", (uint64_t)mc_config.reqs_per_event);
  emit("cas_enabled", yes_no(mc_config.cas_enabled), ctx);
  emit_u(emit, ctx, "tcp_backlog", (uint64_t)mc_config.backlog);
  emit("binding_protocol",
       mc_config.protocol == MC_PROTO_TEXT     ? "ascii"
       : mc_config.protocol == MC_PROTO_BINARY ? "binary"
                                               : "auto-negotiate",
       ctx);
  emit("auth_enabled_sasl", "no", ctx);
  emit("auth_enabled_ascii", yes_no(mc_config.auth_file != NULL), ctx);
  emit_u(emit, ctx, "item_size_max", mc_store_item_max());
  emit("lru_crawler", yes_no(mc_config.lru_crawler), ctx);
  emit("flush_enabled", yes_no(mc_config.flush_enabled), ctx);
  emit("dump_enabled", yes_no(mc_config.dump_enabled), ctx);
  emit_u(emit, ctx, "watcher_logbuf_size",
         (uint64_t)mc_config.watcher_buf_kb << 10);
  emit_u(emit, ctx, "idle_timeout", (uint64_t)mc_config.idle_timeout);
  emit_u(emit, ctx, "read_buf_mem_limit", mc_config.read_buf_mem_limit << 20);
  emit_u(emit, ctx, "hashpower_init", (uint64_t)mc_config.hash_power_init);
  emit("ssl_enabled", "no", ctx);
  emit("memory_file", mc_config.pool ? mc_config.pool : "(null)", ctx);
  emit("ptm_pool", mc_config.pool ? mc_config.pool : "", ctx);
}

/* stats items: the size classes holding items (mc_store.c, "Size
 * classes"); memcached's segmented LRU is one cold LRU here. Counters kept
 * only for the whole cache (out of memory, the crawler's checks, hits) are
 * reported with the first class listed. */
static void items(emit_fn emit, void *ctx) {
  mc_class_stats k[64];
  int last = mc_store_class_stats(k);
  int first = 1;
  char name[64];
#define CLASS_FIELD(field, value)                                              \
  do {                                                                         \
    snprintf(name, sizeof name, "items:%d:%s", i, field);                      \
    emit_u(emit, ctx, name, value);                                            \
  } while (0)
  for (int i = 1; i <= last; i++) {
    if (k[i].number == 0)
      continue;
    CLASS_FIELD("number", k[i].number);
    CLASS_FIELD("number_hot", 0);
    CLASS_FIELD("number_warm", 0);
    CLASS_FIELD("number_cold", k[i].number);
    CLASS_FIELD("age_hot", 0);
    CLASS_FIELD("age_warm", 0);
    CLASS_FIELD("age", 0);
    CLASS_FIELD("mem_requested", k[i].bytes);
    CLASS_FIELD("evicted", k[i].evicted);
    CLASS_FIELD("evicted_nonzero", k[i].evicted_nonzero);
    CLASS_FIELD("evicted_time", 0);
    CLASS_FIELD("outofmemory", first ? LOAD(store_no_memory) : 0);
    CLASS_FIELD("tailrepairs", 0);
    CLASS_FIELD("reclaimed", k[i].reclaimed);
    CLASS_FIELD("expired_unfetched", 0);
    CLASS_FIELD("evicted_unfetched", 0);
    CLASS_FIELD("evicted_active", 0);
    CLASS_FIELD("crawler_reclaimed", k[i].crawler_reclaimed);
    CLASS_FIELD("crawler_items_checked",
                first ? LOAD(crawler_items_checked) : 0);
    CLASS_FIELD("lrutail_reflocked", 0);
    CLASS_FIELD("moves_to_cold", 0);
    CLASS_FIELD("moves_to_warm", 0);
    CLASS_FIELD("moves_within_lru", 0);
    CLASS_FIELD("direct_reclaims", 0);
    CLASS_FIELD("hits_to_hot", 0);
    CLASS_FIELD("hits_to_warm", 0);
    CLASS_FIELD("hits_to_cold", first ? LOAD(get_hits) : 0);
    CLASS_FIELD("hits_to_temp", 0);
    first = 0;
  }
#undef CLASS_FIELD
}

/* stats slabs: the size classes holding slab pages, their pages and chunks
 * as -m counts them (mc_store.c, "Slab pages": an item is one pool block
 * that takes a chunk of its class); per-command hits are kept only for the
 * whole cache: with the first class listed. */
static void slabs(emit_fn emit, void *ctx) {
  mc_class_stats k[64];
  int last = mc_store_class_stats(k);
  mc_store_stats s;
  mc_store_stats_get(&s);
  int active = 0;
  char name[64];
#define CLASS_FIELD(field, value)                                              \
  do {                                                                         \
    snprintf(name, sizeof name, "%d:%s", i, field);                            \
    emit_u(emit, ctx, name, value);                                            \
  } while (0)
  for (int i = 1; i <= last; i++) {
    if (k[i].pages == 0)
      continue;
    uint64_t chunks = k[i].pages * k[i].per_page;
    CLASS_FIELD("chunk_size", k[i].chunk_size);
    CLASS_FIELD("chunks_per_page", k[i].per_page);
    CLASS_FIELD("total_pages", k[i].pages);
    CLASS_FIELD("total_chunks", chunks);
    CLASS_FIELD("used_chunks", k[i].chunks);
    CLASS_FIELD("free_chunks", chunks - k[i].chunks);
    CLASS_FIELD("free_chunks_end", 0);
    CLASS_FIELD("mem_requested", k[i].bytes);
    int all = active == 0;
    CLASS_FIELD("get_hits", all ? LOAD(get_hits) : 0);
    CLASS_FIELD("cmd_set", all ? LOAD(cmd_set) : 0);
    CLASS_FIELD("delete_hits", all ? LOAD(delete_hits) : 0);
    CLASS_FIELD("incr_hits", all ? LOAD(incr_hits) : 0);
    CLASS_FIELD("decr_hits", all ? LOAD(decr_hits) : 0);
    CLASS_FIELD("cas_hits", all ? LOAD(cas_hits) : 0);
    CLASS_FIELD("cas_badval", all ? LOAD(cas_badval) : 0);
    CLASS_FIELD("touch_hits", all ? LOAD(touch_hits) : 0);
    active++;
  }
#undef CLASS_FIELD
  emit_u(emit, ctx, "active_slabs", (uint64_t)active);
  emit_u(emit, ctx, "total_malloced", s.total_malloced);
}

void mc_stats_each(emit_fn emit, void *ctx, const char *group) {
  if (strcmp(group, "settings") == 0)
    settings(emit, ctx);
  else if (strcmp(group, "items") == 0)
    items(emit, ctx);
  else if (strcmp(group, "slabs") == 0)
    slabs(emit, ctx);
  else if (strcmp(group, "sizes") == 0)
    emit("sizes_status", "disabled", ctx);
  else if (strcmp(group, "ptm") == 0)
    ptm_group(emit, ctx);
  else
    general(emit, ctx);
}

static void emit_text(const char *name, const char *value, void *ctx) {
  mc_outf((mc_conn *)ctx, "STAT %s %s\r\n", name, value);
}

int mc_stats_text(mc_conn *c, const char *args) {
  if (strcmp(args, "") == 0 || strcmp(args, "settings") == 0 ||
      strcmp(args, "items") == 0 || strcmp(args, "slabs") == 0 ||
      strcmp(args, "sizes") == 0 || strcmp(args, "ptm") == 0) {
    mc_stats_each(emit_text, c, args);
  } else if (strcmp(args, "conns") == 0) {
    mc_conns_stats(c);
  } else {
    return -1;
  }
  mc_out_str(c, "END\r\n");
  return 0;
}

void mc_stats_reset(void) {
  mc_store_class_reset();
  _Atomic uint64_t *keep[] = {&mc_stat.curr_connections};
  uint64_t saved = atomic_load(keep[0]);
  _Atomic uint64_t *f = (_Atomic uint64_t *)&mc_stat;
  for (size_t i = 0; i < sizeof mc_stat / sizeof *f; i++)
    atomic_store_explicit(&f[i], 0, memory_order_relaxed);
  atomic_store(keep[0], saved);
}
