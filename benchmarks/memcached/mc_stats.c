/*
 * mc_stats.c - the `stats` command's figures: server counters, the cache's
 * figures from the pool, the ptm library's transaction statistics.
 */
#include "mc_stats.h"
#include "mc_conn.h"
#include "mc_store.h"

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

static void general(void (*emit)(const char *, const char *, void *),
                    void *ctx) {
  int64_t now = mc_now();
  struct rusage ru;
  char buf[64];
  mc_store_stats s;
  ptm_stats_t tx;
  mc_store_stats_get(&s);
  ptm_stats(&tx);
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
  emit_u(emit, ctx, "cmd_get", LOAD(cmd_get));
  emit_u(emit, ctx, "cmd_set", LOAD(cmd_set));
  emit_u(emit, ctx, "cmd_flush", LOAD(cmd_flush));
  emit_u(emit, ctx, "cmd_touch", LOAD(cmd_touch));
  emit_u(emit, ctx, "get_hits", LOAD(get_hits));
  emit_u(emit, ctx, "get_misses", LOAD(get_misses));
  emit_u(emit, ctx, "get_expired", s.expired);
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
  emit_u(emit, ctx, "bytes_read", LOAD(bytes_read));
  emit_u(emit, ctx, "bytes_written", LOAD(bytes_written));
  emit_u(emit, ctx, "limit_maxbytes", s.mem_limit);
  emit_u(emit, ctx, "threads", (uint64_t)mc_config.threads);
  emit_u(emit, ctx, "bytes", s.bytes);
  emit_u(emit, ctx, "curr_items", s.curr_items);
  emit_u(emit, ctx, "total_items", s.total_items);
  emit_u(emit, ctx, "evictions", s.evictions);
  emit_u(emit, ctx, "reclaimed", s.reclaimed);
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
  emit_u(emit, ctx, "ptm_commits", tx.commits);
  emit_u(emit, ctx, "ptm_aborts", tx.aborts);
  emit_u(emit, ctx, "ptm_clwb", tx.clwb);
  emit_u(emit, ctx, "ptm_sfence", tx.sfence);
}

static void settings(void (*emit)(const char *, const char *, void *),
                     void *ctx) {
  emit_u(emit, ctx, "maxbytes", mc_config.mem_limit);
  emit_u(emit, ctx, "maxconns", (uint64_t)mc_config.max_conns);
  emit_u(emit, ctx, "tcpport", (uint64_t)mc_config.port);
  emit_u(emit, ctx, "udpport", 0);
  emit("inter", mc_config.listen, ctx);
  emit_u(emit, ctx, "verbosity", (uint64_t)mc_config.verbose);
  emit("evictions", mc_config.evict ? "on" : "off", ctx);
  emit_u(emit, ctx, "num_threads", (uint64_t)mc_config.threads);
  emit_u(emit, ctx, "item_size_max", mc_store_item_max());
  emit("cas_enabled", "yes", ctx);
  emit("ptm_pool", mc_config.pool ? mc_config.pool : "", ctx);
}

void mc_stats_each(void (*emit)(const char *, const char *, void *), void *ctx,
                   const char *group) {
  if (strcmp(group, "settings") == 0)
    settings(emit, ctx);
  else
    general(emit, ctx);
}

static void emit_text(const char *name, const char *value, void *ctx) {
  mc_outf((mc_conn *)ctx, "STAT %s %s\r\n", name, value);
}

int mc_stats_text(mc_conn *c, const char *args) {
  if (strcmp(args, "") == 0 || strcmp(args, "settings") == 0) {
    mc_stats_each(emit_text, c, args);
  } else if (strcmp(args, "items") == 0 || strcmp(args, "slabs") == 0 ||
             strcmp(args, "sizes") == 0 || strcmp(args, "conns") == 0) {
    /* no slab classes or per-connection records: an empty group */
  } else {
    return -1;
  }
  mc_out_str(c, "END\r\n");
  return 0;
}

void mc_stats_reset(void) {
  _Atomic uint64_t *keep[] = {&mc_stat.curr_connections};
  uint64_t saved = atomic_load(keep[0]);
  _Atomic uint64_t *f = (_Atomic uint64_t *)&mc_stat;
  for (size_t i = 0; i < sizeof mc_stat / sizeof *f; i++)
    atomic_store_explicit(&f[i], 0, memory_order_relaxed);
  atomic_store(keep[0], saved);
}
