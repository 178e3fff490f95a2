/*
 * mc_server.c - ptm-memcached's main program: options, the store, the
 * listening socket, and -t worker threads, each with its own epoll set. The
 * main thread accepts connections and hands them to the workers in turn.
 * Network I/O and parsing happen outside transactions; only the cache
 * operations (mc_store.c) are transactions.
 */
#define _GNU_SOURCE
#include "mc_conn.h"
#include "mc_options.h"
#include "mc_stats.h"
#include "mc_store.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <ptm.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define EX_OSERR 71

typedef struct worker {
  pthread_t thread;
  int epfd;
  char *scratch;
} worker;

static atomic_int stopping;

static void on_signal(int sig) {
  (void)sig;
  atomic_store(&stopping, 1);
}

static void conn_close(worker *w, mc_conn *c) {
  epoll_ctl(w->epfd, EPOLL_CTL_DEL, c->fd, NULL);
  close(c->fd);
  free(c->in.data);
  free(c->out.data);
  free(c);
  MC_COUNT(curr_connections, (uint64_t)-1);
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
    if (c->closing || c->out.len > 0 || c->in.start == before)
      break;
  }
  if (c->closing && c->out.len == 0)
    return -1;
  if (eof && c->out.len == 0)
    return -1;
  return 0;
}

static void *worker_main(void *arg) {
  worker *w = arg;
  struct epoll_event ev[64];
  while (!atomic_load(&stopping)) {
    int n = epoll_wait(w->epfd, ev, 64, 200);
    for (int i = 0; i < n; i++) {
      mc_conn *c = ev[i].data.ptr;
      c->scratch = w->scratch;
      if (conn_event(c, ev[i].events) != 0) {
        conn_close(w, c);
        continue;
      }
      /* wait for room to write, or for requests */
      struct epoll_event mod = {.events = c->out.len > 0 ? EPOLLOUT : EPOLLIN,
                                .data.ptr = c};
      epoll_ctl(w->epfd, EPOLL_CTL_MOD, c->fd, &mod);
    }
  }
  return NULL;
}

static int listen_on(const char *addr, int port, int *bound_port) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC,
                           .ai_socktype = SOCK_STREAM,
                           .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
  struct addrinfo *res;
  char service[16];
  snprintf(service, sizeof service, "%d", port);
  int rc = getaddrinfo(addr, service, &hints, &res);
  if (rc != 0) {
    fprintf(stderr, "ptm-memcached: -l %s: %s\n", addr, gai_strerror(rc));
    exit(64);
  }
  int fd = -1, err = 0;
  for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0);
    if (fd < 0) {
      err = errno;
      continue;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 1024) == 0)
      break;
    err = errno;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  if (fd < 0) {
    fprintf(stderr, "ptm-memcached: failed to listen on %s port %d: %s\n", addr,
            port, strerror(err));
    exit(EX_OSERR);
  }
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;
  getsockname(fd, (struct sockaddr *)&ss, &len);
  *bound_port =
      ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                     : ((struct sockaddr_in *)&ss)->sin_port);
  return fd;
}

static void accept_loop(int lfd, worker *workers, int nworkers) {
  int next = 0;
  while (!atomic_load(&stopping)) {
    int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED)
        continue;
      if (errno == EMFILE || errno == ENFILE) {
        usleep(10000);
        continue;
      }
      perror("ptm-memcached: accept");
      return;
    }
    if (atomic_load(&mc_stat.curr_connections) >=
        (uint64_t)mc_config.max_conns) {
      static const char msg[] = "ERROR Too many open connections\r\n";
      if (send(fd, msg, sizeof msg - 1, MSG_NOSIGNAL) < 0)
        (void)0;
      close(fd);
      MC_COUNT(rejected_connections, 1);
      continue;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    mc_conn *c = calloc(1, sizeof *c);
    if (!c) {
      close(fd);
      continue;
    }
    c->fd = fd;
    MC_COUNT(curr_connections, 1);
    MC_COUNT(total_connections, 1);
    worker *w = &workers[next];
    next = (next + 1) % nworkers;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = c};
    if (epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev) != 0) {
      close(fd);
      free(c);
      MC_COUNT(curr_connections, (uint64_t)-1);
    }
  }
}

int main(int argc, char **argv) {
  mc_parse_options(argc, argv, &mc_config);
  mc_started = mc_now();
  signal(SIGPIPE, SIG_IGN);

  mc_store_config sc = {mc_config.pool,       mc_config.pool_size,
                        mc_config.mem_limit,  mc_config.item_max,
                        mc_config.evict,      mc_config.verbose,
                        mc_config.durability, mc_config.pool_mode};
  char err[256];
  if (mc_store_open(&sc, err, sizeof err) != 0) {
    fprintf(stderr, "ptm-memcached: %s\n", err);
    return 1;
  }

  int port;
  int lfd = listen_on(mc_config.listen, mc_config.port, &port);
  if (mc_config.verbose || mc_config.port == 0)
    fprintf(stderr, "ptm-memcached: listening on %s port %d (%d threads)\n",
            mc_config.listen, port, mc_config.threads);
  mc_config.port = port;

  /* Workers never take the signals: the main thread's accept is
   * interrupted by them. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  worker *workers = calloc((size_t)mc_config.threads, sizeof *workers);
  for (int i = 0; i < mc_config.threads; i++) {
    workers[i].epfd = epoll_create1(EPOLL_CLOEXEC);
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
  pthread_sigmask(SIG_SETMASK, &old, NULL);

  accept_loop(lfd, workers, mc_config.threads);

  atomic_store(&stopping, 1);
  for (int i = 0; i < mc_config.threads; i++)
    pthread_join(workers[i].thread, NULL);
  close(lfd);
  if (mc_config.verbose)
    ptm_stats_print(stderr);
  ptm_close();
  return 0;
}
