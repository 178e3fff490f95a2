/*
 * mc_watch.h - memcached's `watch` command (log streams): a connection that
 * sends `watch [STREAM...]` stops taking requests and receives one
 * key=value line per event of the streams it asked for (docs/memcached.md,
 * "watch").
 *
 * Events come from the workers' hot paths, so each producer first tests
 * mc_watching (one relaxed atomic load): with no watcher connected nothing
 * else runs. A line is formatted by the thread that produced the event and
 * copied into every interested watcher's bounded buffer; a watch thread
 * writes the buffers to the sockets. A line that does not fit a watcher's
 * buffer is skipped (counted, and announced by a `skipped=N` line once
 * there is room again): a slow watcher never blocks a worker.
 */
#ifndef MC_WATCH_H
#define MC_WATCH_H

#include "mc_store.h"
#include "mc_text.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* The streams (memcached's names; `watch` alone means fetchers). */
enum {
  MC_WATCH_FETCHERS = 1u << 0,   /* item_get: every lookup of a key */
  MC_WATCH_MUTATIONS = 1u << 1,  /* item_store: every store */
  MC_WATCH_EVICTIONS = 1u << 2,  /* eviction: live items removed for room */
  MC_WATCH_CONNEVENTS = 1u << 3, /* conn_new, conn_close */
  MC_WATCH_SYSEVENTS = 1u << 4,  /* accepted; nothing reports to it here */
  MC_WATCH_RAWCMDS = 1u << 5,    /* accepted; nothing logs raw commands */
  MC_WATCH_DELETIONS = 1u << 6   /* deleted: items removed by delete, md */
};

/* The union of the connected watchers' streams. */
extern atomic_uint mc_watch_mask;

/* Non-zero if a watcher wants one of STREAMS: the producers' only cost
 * while nobody watches. */
static inline unsigned mc_watching(unsigned streams) {
  return atomic_load_explicit(&mc_watch_mask, memory_order_relaxed) & streams;
}

/* Why a connection closed (conn_close's reason=). */
enum { MC_CLOSE_ERROR, MC_CLOSE_NORMAL, MC_CLOSE_IDLE, MC_CLOSE_SHUTDOWN };

/* fetchers: a lookup of KEY by the connection on socket CFD found
 * MC_PRIOR_STATUS(PRIOR) (mc_store.h), an item of MC_PRIOR_NBYTES(PRIOR)
 * value bytes when found. */
void mc_watch_fetch(int cfd, const char *key, size_t nkey, uint32_t prior);

/* A store by CFD (OP, its result R, the new item's absolute EXPTIME and
 * value length NBYTES), after its lookup found PRIOR: the fetchers line of
 * that lookup, then the mutations line, each if watched. */
void mc_watch_store(int cfd, const char *key, size_t nkey, mc_store_op op,
                    mc_result r, int64_t exptime, uint64_t nbytes,
                    uint32_t prior);

/* evictions: a live item removed to make room (values as the item had
 * them; NOW is the transaction's clock). */
void mc_watch_eviction(const char *key, size_t nkey, int fetched,
                       int64_t exptime, int64_t last_access, uint64_t nbytes,
                       int64_t now);

/* connevents: the client socket CFD was accepted (OPENED) or is about to be
 * closed for REASON (MC_CLOSE_*). */
void mc_watch_conn(int cfd, int opened, int reason);

/* deletions: KEY, whose value was NBYTES long, removed by a delete (META
 * 0) or an md (META 1). */
void mc_watch_deletion(const char *key, size_t nkey, int meta, uint64_t nbytes);

/* Events a producer could not pass on (log_worker_dropped). */
void mc_watch_dropped(uint64_t n);

/* `watch [STREAM...]`, TOK[0] being "watch": either an error reply on C,
 * or C->watcher set, its OK already queued on the watcher's buffer. The
 * worker then lets go of the socket and calls mc_watch_start. */
void mc_watch_command(mc_conn *c, mc_token *tok, int ntok);

/* Hands W's socket to the watch thread (which closes it when the client
 * goes away). */
void mc_watch_start(struct mc_watcher *w);

/* log_watchers: the connected watchers. */
uint64_t mc_watch_count(void);

#endif /* MC_WATCH_H */
