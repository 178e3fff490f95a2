/*
 * mc_listen.c - the server's sockets: TCP on every -l address (-p), or a
 * UNIX socket (-s, -a), UDP (-U), and memcached's port file
 * ($MEMCACHED_PORT_FILENAME). Port -1 means any free port, 0 none.
 */
#define _GNU_SOURCE
#include "mc_listen.h"
#include "mc_stats.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define EX_USAGE 64
#define EX_OSERR 71

static int bound_port(int fd) {
  struct sockaddr_storage ss;
  socklen_t len = sizeof ss;
  if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
    return -1;
  return ntohs(ss.ss_family == AF_INET6
                   ? ((struct sockaddr_in6 *)&ss)->sin6_port
                   : ((struct sockaddr_in *)&ss)->sin_port);
}

/* Binds ADDR:PORT (PORT 0: any free port) for TYPE; adds the sockets to L.
 * Exits on failure, as memcached does. Returns the port bound. */
static int bind_inet(mc_listeners *l, const char *addr, int port, int type) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC,
                           .ai_socktype = type,
                           .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
  struct addrinfo *res;
  char service[16];
  snprintf(service, sizeof service, "%d", port);
  int rc = getaddrinfo(addr, service, &hints, &res);
  if (rc != 0) {
    fprintf(stderr, "ptm-memcached: -l %s: %s\n", addr, gai_strerror(rc));
    exit(EX_USAGE);
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
    if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
        (type == SOCK_DGRAM || listen(fd, mc_config.backlog) == 0))
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
  if (l->n == MC_MAX_LISTENERS) {
    fprintf(stderr, "ptm-memcached: too many -l addresses\n");
    exit(EX_USAGE);
  }
  l->fd[l->n] = fd;
  l->kind[l->n] = type == SOCK_DGRAM ? MC_LISTEN_UDP : MC_LISTEN_TCP;
  l->n++;
  return bound_port(fd);
}

static void bind_unix(mc_listeners *l, const char *path, int mask) {
  struct sockaddr_un addr = {.sun_family = AF_UNIX};
  strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct stat st;
  /* a socket left by an earlier run is replaced; any other file is not */
  if (lstat(path, &st) == 0 && S_ISSOCK(st.st_mode))
    unlink(path);
  mode_t old = umask((mode_t)(~mask & 0777));
  int ok = fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
           listen(fd, mc_config.backlog) == 0;
  umask(old);
  if (!ok) {
    fprintf(stderr, "ptm-memcached: failed to listen on UNIX socket %s: %s\n",
            path, strerror(errno));
    exit(EX_OSERR);
  }
  l->fd[l->n] = fd;
  l->kind[l->n] = MC_LISTEN_UNIX;
  l->n++;
}

/* Every address of a comma-separated -l list. */
static int bind_all(mc_listeners *l, const char *list, int port, int type) {
  char buf[1024];
  int bound = 0;
  snprintf(buf, sizeof buf, "%s", list);
  char *save = NULL;
  for (char *a = strtok_r(buf, ",", &save); a; a = strtok_r(NULL, ",", &save))
    bound = bind_inet(l, a, port < 0 ? 0 : port, type);
  return bound;
}

void mc_listen_all(mc_listeners *l) {
  memset(l, 0, sizeof *l);
  l->tcp_port = l->udp_port = -1;
  if (mc_config.unix_socket) {
    bind_unix(l, mc_config.unix_socket, mc_config.unix_mask);
  } else {
    if (mc_config.port != 0)
      l->tcp_port = bind_all(l, mc_config.listen, mc_config.port, SOCK_STREAM);
    if (mc_config.udp_port != 0)
      l->udp_port =
          bind_all(l, mc_config.listen, mc_config.udp_port, SOCK_DGRAM);
  }
  /* memcached's port file: the bound ports, written whole, then renamed */
  const char *file = getenv("MEMCACHED_PORT_FILENAME");
  if (file && *file) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.lck", file);
    FILE *f = fopen(tmp, "w");
    if (f) {
      if (l->tcp_port >= 0)
        fprintf(f, "TCP INET: %d\n", l->tcp_port);
      if (l->udp_port >= 0)
        fprintf(f, "UDP INET: %d\n", l->udp_port);
      if (fclose(f) != 0 || rename(tmp, file) != 0)
        fprintf(stderr, "ptm-memcached: cannot write the port file %s\n", file);
    }
  }
}
