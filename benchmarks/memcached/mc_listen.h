/* mc_listen.h - the server's listening sockets (mc_listen.c) and its UDP
 * requests (mc_udp.c). */
#ifndef MC_LISTEN_H
#define MC_LISTEN_H

#define MC_MAX_LISTENERS 32

enum { MC_LISTEN_TCP, MC_LISTEN_UNIX, MC_LISTEN_UDP };

typedef struct mc_listeners {
  int n;
  int fd[MC_MAX_LISTENERS];
  int kind[MC_MAX_LISTENERS];
  int tcp_port; /* bound, -1: none */
  int udp_port; /* bound, -1: none */
} mc_listeners;

/* Opens every socket mc_config asks for and writes the port file; exits
 * with a message when one cannot be opened. */
void mc_listen_all(mc_listeners *l);

/* Serves the datagrams waiting on the UDP socket FD (memcached's 8-byte
 * frame header: request id, sequence number, datagram count, 0); SCRATCH
 * is a value buffer of mc_store_item_max() bytes. */
void mc_udp_serve(int fd, char *scratch);

#endif /* MC_LISTEN_H */
