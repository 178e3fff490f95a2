/*
 * mc_server.c - ptm-memcached's main program: options, the store, the
 * listening socket, and -t worker threads, each with its own epoll set. The
 * main thread accepts connections and hands them to the workers in turn.
 * Network I/O and parsing happen outside transactions; only the cache
 * operations (mc_store.c) are transactions.
 */
#define _GNU_SOURCE
#include "mc_auth.h"
#include "mc_conn.h"
#include "mc_listen.h"
#include "mc_options.h"
#include "mc_stats.h"
#include "mc_store.h"
#include "mc_watch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <ptm.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define EX_OSERR 71
#define EX_TEMPFAIL 75

typedef struct worker {
  pthread_t thread;
  int epfd;
  char *scratch;
  pthread_mutex_t lock; /* the list of connections (idle_timeout) */
  mc_conn *conns;
} worker;

static atomic_int stopping;

static void on_signal(int sig) {
  (void)sig;
  atomic_store(&stopping, 1);
}

/* Takes C off its worker (list and epoll set) and frees it; its socket
 * stays open. */
static void conn_forget(worker *w, mc_conn *c) {
  pthread_mutex_lock(&w->lock);
  if (c->prev)
    c->prev->next = c->next;
  else
    w->conns = c->next;
  if (c->next)
    c->next->prev = c->prev;
  pthread_mutex_unlock(&w->lock);
  epoll_ctl(w->epfd, EPOLL_CTL_DEL, c->fd, NULL);
  free(c->in.data);
  free(c->out.data);
  free(c);
}

static void conn_close(worker *w, mc_conn *c) {
  int fd = c->fd;
  if (mc_watching(MC_WATCH_CONNEVENTS))
    mc_watch_conn(fd, 0, c->close_reason);
  conn_forget(w, c);
  close(fd);
  MC_COUNT(curr_connections, (uint64_t)-1);
}

/* The watch command turned C into a watcher: its socket goes to the watch
 * thread, which counts the connection closed when it closes it. Input
 * after the command line is dropped. */
static void conn_to_watcher(worker *w, mc_conn *c) {
  struct mc_watcher *watcher = c->watcher;
  conn_forget(w, c);
  mc_watch_start(watcher);
}

/* Writes what it can of the output. -1: the connection is gone. */
static int conn_flush(mc_conn *c) {
  while (c->out.start < c->out.len) {
    ssize_t n = send(c->fd, c->out.data + c->out.start,
                     c->out.len - c->out.start, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        return 0;
      return -1;
    }
    MC_COUNT(bytes_written, (uint64_t)n);
    c->out.start += (size_t)n;
  }
  c->out.start = c->out.len = 0;
  return 0;
}

static void process(mc_conn *c) {
  if (c->proto == MC_PROTO_UNKNOWN && c->in.len > c->in.start)
    c->proto = (unsigned char)c->in.data[c->in.start] == 0x80 ? MC_PROTO_BINARY
                                                              : MC_PROTO_TEXT;
  if (c->proto == MC_PROTO_TEXT)
    mc_text_process(c);
  else if (c->proto == MC_PROTO_BINARY)
    mc_binary_process(c);
}

/* Serves one readiness event. -1: close the connection. */
static int conn_event(mc_conn *c, uint32_t events) {
  if (events & (EPOLLERR | EPOLLHUP) && !(events & EPOLLIN))
    return -1;
  if (conn_flush(c) != 0)
    return -1;
  int eof = 0;
  if ((events & EPOLLIN) && c->out.len == 0) {
    for (int rounds = 0; rounds < 16; rounds++) {
      if (mc_buf_reserve(&c->in, 16384) != 0)
        return -1;
      size_t room = c->in.cap - c->in.len;
      ssize_t n = recv(c->fd, c->in.data + c->in.len, room, 0);
      if (n > 0) {
        MC_COUNT(bytes_read, (uint64_t)n);
        c->in.len += (size_t)n;
        if ((size_t)n < room)
          break; /* drained */
        continue;
      }
      if (n == 0) {
        eof = 1;
        c->close_reason = MC_CLOSE_NORMAL;
        break;
      }
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK)
        break;
      return -1;
    }
  }
  /* process, write, and process again what the output limit held back */
  for (;;) {
    size_t before = c->in.start;
    process(c);
    if (conn_flush(c) != 0)
      return -1;
    if (c->closing || c->watcher || c->out.len > 0 || c->in.start == before)
      break;
  }
  if (c->closing && c->out.len == 0)
    return -1;
  if (eof && c->out.len == 0)
    return -1;
  return 0;
}

/* -o idle_timeout: closes the connections idle for longer. The list is
 * only walked under its lock: the main thread may add to it (or take away
 * a connection epoll refused) meanwhile. */
static void kick_idle(worker *w, int64_t now) {
  for (;;) {
    pthread_mutex_lock(&w->lock);
    mc_conn *c = w->conns;
    while (c && now - c->last_active <= mc_config.idle_timeout)
      c = c->next;
    pthread_mutex_unlock(&w->lock);
    if (!c)
      return;
    MC_COUNT(idle_kicks, 1);
    c->close_reason = MC_CLOSE_IDLE;
    conn_close(w, c);
  }
}

static void *worker_main(void *arg) {
  worker *w = arg;
  struct epoll_event ev[64];
  int64_t checked = mc_now();
  while (!atomic_load(&stopping)) {
    int n = epoll_wait(w->epfd, ev, 64, 200);
    int64_t now = mc_now();
    for (int i = 0; i < n; i++) {
      mc_conn *c = ev[i].data.ptr;
      c->scratch = w->scratch;
      c->last_active = now;
      int rc = conn_event(c, ev[i].events);
      if (c->watcher) { /* even if the client is gone: the watch thread
                         * finds out and unregisters it */
        conn_to_watcher(w, c);
        continue;
      }
      if (rc != 0) {
        conn_close(w, c);
        continue;
      }
      /* wait for room to write, or for requests (a system call only when
       * that changes: most requests leave the connection waiting for more) */
      uint32_t want = c->out.len > 0 ? EPOLLOUT : EPOLLIN;
      if (want != c->events) {
        struct epoll_event mod = {.events = want, .data.ptr = c};
        c->events = want;
        epoll_ctl(w->epfd, EPOLL_CTL_MOD, c->fd, &mod);
      }
    }
    /* after the events: none of them refers to a kicked connection */
    if (mc_config.idle_timeout > 0 && now != checked) {
      checked = now;
      kick_idle(w, now);
    }
  }
  return NULL;
}

static worker *g_workers;
static const mc_listeners *g_listeners;

/* "tcp:ADDR:PORT", "udp:...", "unix:PATH" of a socket's own (PEER 0) or
 * peer's address. */
static void sock_name(int fd, int peer, int udp, char *out, size_t n) {
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;
  memset(&ss, 0, sizeof ss);
  int rc = peer ? getpeername(fd, (struct sockaddr *)&ss, &len)
                : getsockname(fd, (struct sockaddr *)&ss, &len);
  char host[INET6_ADDRSTRLEN] = "?";
  if (rc != 0) {
    snprintf(out, n, "unknown");
  } else if (ss.ss_family == AF_UNIX) {
    const char *path = ((struct sockaddr_un *)&ss)->sun_path;
    snprintf(out, n, "unix:%s",
             *path ? path
                   : (mc_config.unix_socket ? mc_config.unix_socket : ""));
  } else if (ss.ss_family == AF_INET6) {
    struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
    inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
    snprintf(out, n, "%s:[%s]:%d", udp ? "udp" : "tcp", host,
             ntohs(a->sin6_port));
  } else {
    struct sockaddr_in *a = (struct sockaddr_in *)&ss;
    inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    snprintf(out, n, "%s:%s:%d", udp ? "udp" : "tcp", host, ntohs(a->sin_port));
  }
}

/* stats conns: the listening sockets, then every client connection. */
void mc_conns_stats(mc_conn *self) {
  char a[160];
  int64_t now = mc_now();
  for (int i = 0; g_listeners && i < g_listeners->n; i++) {
    int udp = g_listeners->kind[i] == MC_LISTEN_UDP;
    sock_name(g_listeners->fd[i], 0, udp, a, sizeof a);
    mc_outf(self, "STAT %d:addr %s\r\n", g_listeners->fd[i], a);
    mc_outf(self, "STAT %d:state %s\r\n", g_listeners->fd[i],
            udp ? "conn_read" : "conn_listening");
  }
  for (int w = 0; g_workers && w < mc_config.threads; w++) {
    pthread_mutex_lock(&g_workers[w].lock);
    for (mc_conn *c = g_workers[w].conns; c; c = c->next) {
      sock_name(c->fd, 1, 0, a, sizeof a);
      mc_outf(self, "STAT %d:addr %s\r\n", c->fd, a);
      sock_name(c->fd, 0, 0, a, sizeof a);
      mc_outf(self, "STAT %d:listen_addr %s\r\n", c->fd, a);
      /* another worker's buffers are read without its lock: the state is
       * a hint, as in memcached */
      const char *state = c == self                 ? "conn_parse_cmd"
                          : c->in.len > c->in.start ? "conn_nread"
                                                    : "conn_waiting";
      mc_outf(self, "STAT %d:state %s\r\n", c->fd, state);
      mc_outf(self, "STAT %d:secs_since_last_cmd %lld\r\n", c->fd,
              (long long)(now - c->last_active));
    }
    pthread_mutex_unlock(&g_workers[w].lock);
  }
}

/* Hands a new connection (FD, nonblocking) to the next worker. */
static void adopt(int fd, int is_unix, worker *workers, int nworkers,
                  int *next) {
  if (atomic_load(&mc_stat.curr_connections) >= (uint64_t)mc_config.max_conns) {
    static const char msg[] = "ERROR Too many open connections\r\n";
    if (send(fd, msg, sizeof msg - 1, MSG_NOSIGNAL) < 0)
      (void)0;
    close(fd);
    MC_COUNT(rejected_connections, 1);
    return;
  }
  if (!is_unix) {
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  mc_conn *c = calloc(1, sizeof *c);
  if (!c) {
    close(fd);
    return;
  }
  c->fd = fd;
  c->proto = mc_config.protocol; /* -B ascii|binary; auto: the first byte */
  c->last_active = mc_now();
  MC_COUNT(curr_connections, 1);
  MC_COUNT(total_connections, 1);
  if (mc_watching(MC_WATCH_CONNEVENTS))
    mc_watch_conn(fd, 1, 0);
  worker *w = &workers[*next];
  *next = (*next + 1) % nworkers;
  pthread_mutex_lock(&w->lock);
  c->next = w->conns;
  if (c->next)
    c->next->prev = c;
  w->conns = c;
  pthread_mutex_unlock(&w->lock);
  c->events = EPOLLIN;
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
  if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
    conn_close(w, c);
}

/* The main thread: accepts on the stream sockets, serves UDP datagrams. */
static void accept_loop(const mc_listeners *l, worker *workers, int nworkers,
                        char *scratch) {
  int next = 0;
  struct pollfd pfd[MC_MAX_LISTENERS];
  for (int i = 0; i < l->n; i++)
    pfd[i] = (struct pollfd){.fd = l->fd[i], .events = POLLIN};
  while (!atomic_load(&stopping)) {
    int n = poll(pfd, (nfds_t)l->n, 200);
    if (n <= 0)
      continue; /* timeout or EINTR: look at stopping again */
    for (int i = 0; i < l->n; i++) {
      if (!(pfd[i].revents & POLLIN))
        continue;
      if (l->kind[i] == MC_LISTEN_UDP) {
        mc_udp_serve(l->fd[i], scratch);
        continue;
      }
      int fd = accept4(l->fd[i], NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE)
          usleep(10000);
        continue;
      }
      adopt(fd, l->kind[i] == MC_LISTEN_UNIX, workers, nworkers, &next);
    }
  }
}

void mc_server_shutdown(int graceful) {
  (void)graceful; /* both stop cleanly: every store is already in the pool */
  kill(getpid(), SIGTERM);
}

static void daemonize(void) {
  if (daemon(1, 0) != 0) {
    perror("ptm-memcached: daemon");
    exit(EX_OSERR);
  }
  if (mc_config.pidfile) {
    FILE *f = fopen(mc_config.pidfile, "w");
    if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0)
      fprintf(stderr, "ptm-memcached: cannot write the pid file %s\n",
              mc_config.pidfile);
  }
}

int main(int argc, char **argv) {
  mc_parse_options(argc, argv, &mc_config);
  mc_started = mc_now();
  signal(SIGPIPE, SIG_IGN);
  if (mc_config.auth_file && mc_auth_load(mc_config.auth_file) != 0)
    return 64;

  /* a port chosen by the system is announced on stderr */
  int announce =
      mc_config.verbose || mc_config.port < 0 || mc_config.udp_port < 0;
  mc_listeners listeners;
  mc_listen_all(&listeners);
  if (listeners.tcp_port >= 0)
    mc_config.port = listeners.tcp_port;
  if (listeners.udp_port >= 0)
    mc_config.udp_port = listeners.udp_port;
  /* before the pool opens: the runtime's threads do not survive a fork */
  if (mc_config.daemonize)
    daemonize();

  mc_store_config sc = {
      mc_config.pool,           mc_config.pool_size,  mc_config.mem_limit,
      mc_config.item_max,       mc_config.evict,      mc_config.verbose,
      mc_config.durability,     mc_config.pool_mode,  mc_config.hash_power_init,
      mc_config.no_hash_expand, mc_config.threads,    mc_config.chunk_size,
      mc_config.growth_factor,  mc_config.malloc_base};
  char err[512];
  int opened = mc_store_open(&sc, err, sizeof err);
  if (opened != 0) {
    fprintf(stderr, "ptm-memcached: %s\n", err);
    /* in use: EX_TEMPFAIL, the other process may be on its way out */
    return opened == MC_STORE_IN_USE ? EX_TEMPFAIL : 1;
  }
  if (announce) {
    /* where the cache lives and how durable it is (docs/memcached.md) */
    /* (mc_store_open set PTM_DURABILITY from --durability) */
    const char *durability = getenv("PTM_DURABILITY");
    if (!durability || !*durability)
      durability = "strict";
    fprintf(stderr,
            "ptm-memcached: pool %s (library %s, %s durability, persistence "
            "domain %s)\n",
            mc_config.pool ? mc_config.pool : "(temporary)", ptm_algorithm(),
            durability, ptm_persist_domain());
    if (listeners.tcp_port >= 0)
      fprintf(stderr, "ptm-memcached: listening on %s port %d (%d threads)\n",
              mc_config.listen, listeners.tcp_port, mc_config.threads);
    if (listeners.udp_port >= 0)
      fprintf(stderr, "ptm-memcached: UDP on %s port %d\n", mc_config.listen,
              listeners.udp_port);
    if (mc_config.unix_socket)
      fprintf(stderr, "ptm-memcached: listening on %s (%d threads)\n",
              mc_config.unix_socket, mc_config.threads);
  }

  /* Workers never take the signals: the main thread's poll is interrupted
   * by them. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  worker *workers = calloc((size_t)mc_config.threads, sizeof *workers);
  g_workers = workers;
  g_listeners = &listeners;
  for (int i = 0; i < mc_config.threads; i++) {
    workers[i].epfd = epoll_create1(EPOLL_CLOEXEC);
    pthread_mutex_init(&workers[i].lock, NULL);
    workers[i].scratch = malloc(mc_store_item_max());
    if (workers[i].epfd < 0 || !workers[i].scratch ||
        pthread_create(&workers[i].thread, NULL, worker_main, &workers[i])) {
      fprintf(stderr, "ptm-memcached: cannot start worker %d\n", i);
      return EX_OSERR;
    }
  }
  struct sigaction sa = {.sa_handler = on_signal}; /* no SA_RESTART */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL); /* memcached's graceful stop */
  pthread_sigmask(SIG_SETMASK, &old, NULL);

  char *scratch = malloc(mc_store_item_max());
  if (!scratch)
    return EX_OSERR;
  accept_loop(&listeners, workers, mc_config.threads, scratch);

  atomic_store(&stopping, 1);
  for (int i = 0; i < mc_config.threads; i++)
    pthread_join(workers[i].thread, NULL);
  for (int i = 0; i < listeners.n; i++)
    close(listeners.fd[i]);
  if (mc_config.unix_socket)
    unlink(mc_config.unix_socket);
  mc_store_close();
  if (mc_config.verbose)
    ptm_stats_print(stderr);
  ptm_close();
  return 0;
}
