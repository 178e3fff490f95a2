/*
 * mc_watch.c - log streams (mc_watch.h): the watchers, their buffers, the
 * lines of each event, and the watch thread that writes them out.
 *
 * One mutex guards the watcher table and the buffers; it is taken only
 * while somebody watches. Each buffer is a ring: producers append behind
 * its data under the mutex, the watch thread sends from its front without
 * holding it (producers never touch the bytes in front of them) and
 * advances the front under the mutex. The watch thread alone removes
 * watchers, so it may use one between two locked sections.
 */
#define _GNU_SOURCE
#include "mc_watch.h"
#include "mc_conn.h"
#include "mc_layout.h"
#include "mc_stats.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* memcached's limit on simultaneous watchers */
#define WATCHERS_MAX 20
/* a line's body: the longest is an item_store of a 250-byte key encoded
 * three bytes per byte */
#define EVENT_LINE_MAX 1024
/* room kept for the `skipped=N` notice in front of the next line */
#define NOTICE_MAX 32

typedef struct mc_watcher {
  int fd;
  int started;    /* the watch thread owns the socket */
  unsigned flags; /* MC_WATCH_* */
  char *buf;      /* ring of CAP bytes, LEN of them from HEAD */
  size_t cap, head, len;
  uint64_t skipped; /* lines skipped since the last one written */
} mc_watcher;

atomic_uint mc_watch_mask;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static mc_watcher *g_watchers[WATCHERS_MAX]; /* guarded by g_lock */
static int g_count;                          /* guarded by g_lock */
static atomic_uint_fast64_t g_gid;           /* taken under g_lock */
static atomic_int g_connected;               /* log_watchers */
static int g_wake = -1;                      /* eventfd of the watch thread */
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_thread_ok;

uint64_t mc_watch_count(void) { return (uint64_t)atomic_load(&g_connected); }

void mc_watch_dropped(uint64_t n) { MC_COUNT(log_worker_dropped, n); }

static void wake(void) {
  uint64_t one = 1;
  if (write(g_wake, &one, sizeof one) < 0)
    (void)0; /* the counter is saturated: the thread is awake anyway */
}

/* Called with g_lock held. */
static void update_mask(void) {
  unsigned m = 0;
  for (int i = 0; i < g_count; i++)
    m |= g_watchers[i]->flags;
  atomic_store_explicit(&mc_watch_mask, m, memory_order_relaxed);
}

static void ring_put(mc_watcher *w, const char *s, size_t n) {
  size_t tail = (w->head + w->len) % w->cap;
  size_t first = w->cap - tail < n ? w->cap - tail : n;
  memcpy(w->buf + tail, s, first);
  memcpy(w->buf, s + first, n - first);
  w->len += n;
}

/* Passes the event line BODY (N bytes, ending in a newline) to the
 * watchers of STREAM, behind the timestamp and the global id. */
static void publish(unsigned stream, const char *body, size_t n) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  char head[64];
  int wake_thread = 0;
  pthread_mutex_lock(&g_lock);
  uint64_t gid = atomic_fetch_add_explicit(&g_gid, 1, memory_order_relaxed);
  int nh = snprintf(head, sizeof head, "ts=%lld.%06ld gid=%" PRIu64 " ",
                    (long long)ts.tv_sec, ts.tv_nsec / 1000, gid + 1);
  int any = 0;
  for (int i = 0; i < g_count; i++) {
    mc_watcher *w = g_watchers[i];
    if (!(w->flags & stream))
      continue;
    any = 1;
    if (w->cap - w->len < (size_t)nh + n + NOTICE_MAX) {
      w->skipped++;
      MC_COUNT(log_watcher_skipped, 1);
      continue;
    }
    if (w->started && w->len == 0)
      wake_thread = 1;
    if (w->skipped) {
      char notice[NOTICE_MAX];
      int nn =
          snprintf(notice, sizeof notice, "skipped=%" PRIu64 "\n", w->skipped);
      ring_put(w, notice, (size_t)nn);
      w->skipped = 0;
    }
    ring_put(w, head, (size_t)nh);
    ring_put(w, body, n);
    MC_COUNT(log_watcher_sent, 1);
  }
  pthread_mutex_unlock(&g_lock);
  if (any)
    MC_COUNT(log_worker_written, 1);
  if (wake_thread)
    wake();
}

/* KEY with every byte outside [A-Za-z0-9._~-] as %XX, as memcached writes
 * keys in log lines; OUT has room for 3 * MC_KEY_MAX + 1 bytes. */
static void uri_encode(const char *key, size_t nkey, char *out) {
  static const char hex[] = "0123456789ABCDEF";
  size_t o = 0;
  if (nkey > MC_KEY_MAX)
    nkey = MC_KEY_MAX;
  for (size_t i = 0; i < nkey; i++) {
    unsigned char ch = (unsigned char)key[i];
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch >= '0' && ch <= '9') || ch == '-' || ch == '.' || ch == '_' ||
        ch == '~') {
      out[o++] = (char)ch;
    } else {
      out[o++] = '%';
      out[o++] = hex[ch >> 4];
      out[o++] = hex[ch & 15];
    }
  }
  out[o] = '\0';
}

/* memcached's slab class of an item, as stats items/slabs number them. */
static int class_of(size_t nkey, uint64_t nbytes) {
  return mc_store_class_of(mc_item_size(nkey, nbytes));
}

static const char *const fetch_status[] = {"not_found", "found", "flushed",
                                           "expired"};

static void publish_fetch(int cfd, const char *ekey, uint32_t prior,
                          size_t nkey) {
  char line[EVENT_LINE_MAX];
  int found = MC_PRIOR_STATUS(prior) == MC_PRIOR_FOUND;
  uint64_t nbytes = found ? MC_PRIOR_NBYTES(prior) : 0;
  int n = snprintf(line, sizeof line,
                   "type=item_get key=%s status=%s clsid=%d cfd=%d "
                   "size=%" PRIu64 "\n",
                   ekey, fetch_status[MC_PRIOR_STATUS(prior)],
                   found ? class_of(nkey, nbytes) : 0, cfd, nbytes);
  if (n > 0 && n < (int)sizeof line)
    publish(MC_WATCH_FETCHERS, line, (size_t)n);
}

void mc_watch_fetch(int cfd, const char *key, size_t nkey, uint32_t prior) {
  if (!mc_watching(MC_WATCH_FETCHERS))
    return;
  char ekey[3 * MC_KEY_MAX + 1];
  uri_encode(key, nkey, ekey);
  publish_fetch(cfd, ekey, prior, nkey);
}

void mc_watch_deletion(const char *key, size_t nkey, int meta,
                       uint64_t nbytes) {
  if (!mc_watching(MC_WATCH_DELETIONS))
    return;
  char ekey[3 * MC_KEY_MAX + 1];
  uri_encode(key, nkey, ekey);
  char line[EVENT_LINE_MAX];
  int n =
      snprintf(line, sizeof line,
               "type=deleted key=%s cmd=%s clsid=%d size=%" PRIu64 "\n", ekey,
               meta ? "md" : "delete", class_of(nkey, nbytes), nbytes);
  if (n > 0 && n < (int)sizeof line)
    publish(MC_WATCH_DELETIONS, line, (size_t)n);
}

void mc_watch_store(int cfd, const char *key, size_t nkey, mc_store_op op,
                    mc_result r, int64_t exptime, uint64_t nbytes,
                    uint32_t prior) {
  /* memcached's names, in mc_result's and mc_store_op's orders */
  static const char *const status[] = {"stored",    "not_stored", "exists",
                                       "not_found", "not_stored", "too_large",
                                       "no_memory"};
  static const char *const cmd[] = {"set",    "add",     "replace",
                                    "append", "prepend", "cas"};
  unsigned want = mc_watching(MC_WATCH_FETCHERS | MC_WATCH_MUTATIONS);
  if (!want)
    return;
  char ekey[3 * MC_KEY_MAX + 1];
  uri_encode(key, nkey, ekey);
  /* the store looked the key up first, as memcached's does */
  if ((want & MC_WATCH_FETCHERS) && r != MC_TOO_LARGE)
    publish_fetch(cfd, ekey, prior, nkey);
  if (!(want & MC_WATCH_MUTATIONS))
    return;
  /* ttl: seconds left (0: never expires) */
  int64_t ttl = exptime == 0 ? 0 : exptime - mc_now();
  if (exptime != 0 && ttl < 0)
    ttl = -1;
  char line[EVENT_LINE_MAX];
  int n = snprintf(line, sizeof line,
                   "type=item_store key=%s status=%s cmd=%s ttl=%lld "
                   "clsid=%d cfd=%d size=%" PRIu64 "\n",
                   ekey, status[r], cmd[op], (long long)ttl,
                   class_of(nkey, nbytes), cfd, nbytes);
  if (n > 0 && n < (int)sizeof line)
    publish(MC_WATCH_MUTATIONS, line, (size_t)n);
}

void mc_watch_eviction(const char *key, size_t nkey, int fetched,
                       int64_t exptime, int64_t last_access, uint64_t nbytes,
                       int64_t now) {
  if (!mc_watching(MC_WATCH_EVICTIONS))
    return;
  char ekey[3 * MC_KEY_MAX + 1];
  uri_encode(key, nkey, ekey);
  char line[EVENT_LINE_MAX];
  int n =
      snprintf(line, sizeof line,
               "type=eviction key=%s fetch=%s ttl=%lld la=%lld clsid=%d "
               "size=%" PRIu64 "\n",
               ekey, fetched ? "yes" : "no",
               (long long)(exptime != 0 ? exptime - now : -1),
               (long long)(now - last_access), class_of(nkey, nbytes), nbytes);
  if (n > 0 && n < (int)sizeof line)
    publish(MC_WATCH_EVICTIONS, line, (size_t)n);
}

void mc_watch_conn(int cfd, int opened, int reason) {
  static const char *const reasons[] = {"error", "normal", "idle_timeout",
                                        "shutdown"};
  if (!mc_watching(MC_WATCH_CONNEVENTS))
    return;
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;
  memset(&ss, 0, sizeof ss);
  char rip[INET6_ADDRSTRLEN] = "unix";
  unsigned rport = 0;
  const char *transport = "local";
  if (getpeername(cfd, (struct sockaddr *)&ss, &len) == 0) {
    if (ss.ss_family == AF_INET) {
      const struct sockaddr_in *a = (const struct sockaddr_in *)&ss;
      inet_ntop(AF_INET, &a->sin_addr, rip, sizeof rip);
      rport = ntohs(a->sin_port);
      transport = "tcp";
    } else if (ss.ss_family == AF_INET6) {
      const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)&ss;
      inet_ntop(AF_INET6, &a->sin6_addr, rip, sizeof rip);
      rport = ntohs(a->sin6_port);
      transport = "tcp";
    }
  }
  char line[EVENT_LINE_MAX];
  int n;
  if (opened)
    n = snprintf(line, sizeof line,
                 "type=conn_new rip=%s rport=%u transport=%s cfd=%d\n", rip,
                 rport, transport, cfd);
  else
    n = snprintf(line, sizeof line,
                 "type=conn_close rip=%s rport=%u transport=%s reason=%s "
                 "cfd=%d\n",
                 rip, rport, transport, reasons[reason], cfd);
  if (n > 0 && n < (int)sizeof line)
    publish(MC_WATCH_CONNEVENTS, line, (size_t)n);
}

/* ---- The watch thread --------------------------------------------------- */

/* Removes W (started) from the table and closes its connection. */
static void drop(mc_watcher *w) {
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < g_count; i++) {
    if (g_watchers[i] == w) {
      g_watchers[i] = g_watchers[--g_count];
      break;
    }
  }
  update_mask();
  pthread_mutex_unlock(&g_lock);
  atomic_fetch_sub(&g_connected, 1);
  close(w->fd);
  free(w->buf);
  free(w);
  MC_COUNT(curr_connections, (uint64_t)-1);
}

/* Sends what W's buffer holds. -1: the connection is gone. */
static int send_out(mc_watcher *w) {
  for (;;) {
    pthread_mutex_lock(&g_lock);
    size_t head = w->head, n = w->len;
    pthread_mutex_unlock(&g_lock);
    if (n == 0)
      return 0;
    if (n > w->cap - head)
      n = w->cap - head; /* up to the ring's end; the rest next turn */
    ssize_t sent = send(w->fd, w->buf + head, n, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR)
        continue;
      return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
    }
    MC_COUNT(bytes_written, (uint64_t)sent);
    pthread_mutex_lock(&g_lock);
    w->head = (w->head + (size_t)sent) % w->cap;
    w->len -= (size_t)sent;
    pthread_mutex_unlock(&g_lock);
  }
}

/* Reads and discards what the client sends. -1: it closed or failed. */
static int drain_input(int fd) {
  char junk[512];
  for (;;) {
    ssize_t n = recv(fd, junk, sizeof junk, 0);
    if (n > 0)
      continue;
    if (n == 0)
      return -1;
    if (errno == EINTR)
      continue;
    return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1;
  }
}

static void *watch_main(void *arg) {
  (void)arg;
  struct pollfd pfd[WATCHERS_MAX + 1];
  mc_watcher *polled[WATCHERS_MAX];
  for (;;) {
    int n = 0;
    pfd[0] = (struct pollfd){.fd = g_wake, .events = POLLIN};
    pthread_mutex_lock(&g_lock);
    for (int i = 0; i < g_count; i++) {
      mc_watcher *w = g_watchers[i];
      if (!w->started)
        continue;
      polled[n] = w;
      pfd[n + 1] = (struct pollfd){
          .fd = w->fd, .events = (short)(POLLIN | (w->len ? POLLOUT : 0))};
      n++;
    }
    pthread_mutex_unlock(&g_lock);
    if (poll(pfd, (nfds_t)n + 1, -1) < 0)
      continue; /* EINTR */
    if (pfd[0].revents & POLLIN) {
      /* Lines arrived: let more of them gather first (as memcached's
       * logger thread, which wakes at most every millisecond), so that a
       * busy stream is written in large pieces, not one send() per line:
       * fewer system calls, and a socket buffer holds more lines (each
       * send costs a buffer's bookkeeping, a unix socket's most of all). */
      const struct timespec gather = {0, 1000000};
      nanosleep(&gather, NULL);
      uint64_t v;
      if (read(g_wake, &v, sizeof v) < 0)
        (void)0;
    }
    /* every watcher gets a try: a wake-up says some buffer has data */
    for (int i = 0; i < n; i++) {
      mc_watcher *w = polled[i];
      short ev = pfd[i + 1].revents;
      if ((ev & (POLLERR | POLLNVAL)) ||
          ((ev & (POLLIN | POLLHUP)) && drain_input(w->fd) != 0) ||
          send_out(w) != 0)
        drop(w);
    }
  }
  return NULL;
}

static void start_thread(void) {
  g_wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (g_wake < 0)
    return;
  pthread_t t;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  g_thread_ok = pthread_create(&t, &attr, watch_main, NULL) == 0;
  pthread_attr_destroy(&attr);
}

/* ---- The command ---------------------------------------------------------
 */

static unsigned stream_of(const mc_token *t) {
  static const struct {
    const char *name;
    unsigned flag;
  } streams[] = {
      {"fetchers", MC_WATCH_FETCHERS},   {"mutations", MC_WATCH_MUTATIONS},
      {"evictions", MC_WATCH_EVICTIONS}, {"connevents", MC_WATCH_CONNEVENTS},
      {"sysevents", MC_WATCH_SYSEVENTS}, {"rawcmds", MC_WATCH_RAWCMDS},
      {"deletions", MC_WATCH_DELETIONS}};
  /* the proxy's streams (proxyreqs, proxyevents, proxyuser) are refused as
   * unknown: there is no proxy */
  for (size_t i = 0; i < sizeof streams / sizeof *streams; i++)
    if (mc_tok_is(t, streams[i].name))
      return streams[i].flag;
  return 0;
}

void mc_watch_command(mc_conn *c, mc_token *tok, int ntok) {
  if (!mc_config.watch_enabled) {
    mc_out_str(c, "CLIENT_ERROR watch commands not allowed\r\n");
    return;
  }
  if (c->fd < 0) { /* a UDP request: there is no stream to turn into one */
    mc_out_str(c, "ERROR\r\n");
    return;
  }
  if (c->out.len > c->out.start) {
    /* replies of earlier pipelined requests are still to be sent */
    mc_out_str(c, "ERROR cannot pipeline other commands before watch\r\n");
    return;
  }
  unsigned flags = ntok > 1 ? 0 : MC_WATCH_FETCHERS;
  for (int i = 1; i < ntok; i++) {
    unsigned f = stream_of(&tok[i]);
    if (!f) {
      mc_out_str(c, "ERROR\r\n");
      return;
    }
    flags |= f;
  }
  pthread_once(&g_once, start_thread);
  size_t cap = (size_t)mc_config.watcher_buf_kb << 10;
  mc_watcher *w = calloc(1, sizeof *w);
  char *buf = malloc(cap);
  if (!g_thread_ok || !w || !buf) {
    free(w);
    free(buf);
    mc_out_str(c, "WATCHER_FAILED failed to add log watcher\r\n");
    return;
  }
  *w = (mc_watcher){.fd = c->fd, .flags = flags, .buf = buf, .cap = cap};
  ring_put(w, "OK\r\n", 4);
  pthread_mutex_lock(&g_lock);
  if (g_count == WATCHERS_MAX) {
    pthread_mutex_unlock(&g_lock);
    free(buf);
    free(w);
    mc_out_str(c, "WATCHER_TOO_MANY log watcher limit reached\r\n");
    return;
  }
  g_watchers[g_count++] = w;
  update_mask();
  pthread_mutex_unlock(&g_lock);
  atomic_fetch_add(&g_connected, 1);
  c->watcher = w;
}

void mc_watch_start(mc_watcher *w) {
  pthread_mutex_lock(&g_lock);
  w->started = 1;
  pthread_mutex_unlock(&g_lock);
  wake();
}
