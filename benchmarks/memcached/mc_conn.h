/*
 * mc_conn.h - one client connection of ptm-memcached: input and output
 * buffers and the protocol state. A connection is served by one worker
 * thread at a time; nothing here is shared or transactional.
 */
#ifndef MC_CONN_H
#define MC_CONN_H

#include <stddef.h>
#include <stdint.h>

typedef struct mc_buf {
  char *data;
  size_t start; /* first unconsumed byte (input) */
  size_t len;   /* end of the valid bytes */
  size_t cap;
} mc_buf;

enum { MC_PROTO_UNKNOWN, MC_PROTO_TEXT, MC_PROTO_BINARY };

typedef struct mc_conn {
  int fd;
  int proto;
  mc_buf in, out;
  uint64_t swallow;    /* input bytes still to discard (rejected value) */
  int closing;         /* close once the output is written */
  int noreply;         /* the text command being run silences its replies */
  int authenticated;   /* -Y: the client has sent a valid user and password */
  int64_t last_active; /* seconds (mc_now): -o idle_timeout */
  int close_reason;    /* MC_CLOSE_* (mc_watch.h): watch connevents */
  uint32_t events;     /* its interest set in the worker's epoll */
  /* set by the watch command: the worker hands the socket to the watch
   * thread (mc_watch.h) and forgets the connection */
  struct mc_watcher *watcher;
  struct mc_conn *prev, *next; /* the worker's connections */
  char *scratch; /* the worker's value buffer (mc_store_item_max bytes) */
} mc_conn;

/* Makes room for N more bytes at the end; 0 or -1 (out of memory). */
int mc_buf_reserve(mc_buf *b, size_t n);
/* Appends; on allocation failure marks the connection closing. */
void mc_out(mc_conn *c, const void *data, size_t n);
void mc_out_str(mc_conn *c, const char *s);
void mc_outf(mc_conn *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Discards buffered input still to be swallowed (c->swallow, the rest of a
 * rejected value); 1 while more is to come, 0 once it is all gone. */
int mc_swallow(mc_conn *c);

/* Parses and executes the complete requests buffered in c->in, appending
 * the replies to c->out. Stops early when the output is large. */
void mc_text_process(mc_conn *c);
void mc_binary_process(mc_conn *c);

/* stats conns: every socket and connection, as memcached lists them. */
void mc_conns_stats(mc_conn *self);

/* Stops the server as SIGTERM does (the shutdown command, -A). */
void mc_server_shutdown(int graceful);

/* A protocol expiry time (0, relative up to 30 days, absolute, negative)
 * as the store's absolute time. */
int64_t mc_expiry(int64_t exptime);

/* Output size above which a connection stops reading requests until the
 * client has taken the replies. */
#define MC_OUT_HIGH_WATER (1u << 20)

#endif /* MC_CONN_H */
