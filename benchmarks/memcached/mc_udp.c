/*
 * mc_udp.c - memcached's UDP protocol: each datagram is an 8-byte frame
 * header (request id, sequence number, datagram count, reserved; big
 * endian) and one or more complete text or binary requests. The reply goes
 * back in datagrams of at most 1400 bytes, each with the request id, its
 * sequence number and the count.
 */
#include "mc_conn.h"
#include "mc_listen.h"
#include "mc_stats.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define UDP_HEADER 8
#define UDP_MAX_DATAGRAM 1400
#define UDP_MAX_REQUEST 65536

static void put16(unsigned char *p, unsigned v) {
  p[0] = (unsigned char)(v >> 8);
  p[1] = (unsigned char)v;
}

static void reply(int fd, const unsigned char *hdr, const mc_conn *c,
                  const struct sockaddr *to, socklen_t tolen) {
  size_t payload = UDP_MAX_DATAGRAM - UDP_HEADER;
  size_t len = c->out.len;
  size_t count = len == 0 ? 0 : (len + payload - 1) / payload;
  if (count > 0xffff)
    return; /* cannot be framed: memcached drops it too */
  for (size_t i = 0; i < count; i++) {
    unsigned char d[UDP_MAX_DATAGRAM];
    size_t n = len - i * payload < payload ? len - i * payload : payload;
    memcpy(d, hdr, 2); /* the request id */
    put16(d + 2, (unsigned)i);
    put16(d + 4, (unsigned)count);
    put16(d + 6, 0);
    memcpy(d + UDP_HEADER, c->out.data + i * payload, n);
    ssize_t sent = sendto(fd, d, UDP_HEADER + n, MSG_DONTWAIT, to, tolen);
    if (sent > 0)
      MC_COUNT(bytes_written, (uint64_t)sent);
  }
}

void mc_udp_serve(int fd, char *scratch) {
  static unsigned char buf[UDP_MAX_REQUEST];
  for (int round = 0; round < 64; round++) {
    struct sockaddr_storage from;
    socklen_t fromlen = sizeof from;
    ssize_t n = recvfrom(fd, buf, sizeof buf, MSG_DONTWAIT,
                         (struct sockaddr *)&from, &fromlen);
    if (n < 0)
      return;
    MC_COUNT(bytes_read, (uint64_t)n);
    if (n <= UDP_HEADER)
      continue; /* no request: nothing to answer */
    mc_conn c;
    memset(&c, 0, sizeof c);
    c.fd = -1;
    c.scratch = scratch;
    if (buf[4] != 0 || buf[5] != 1) {
      /* a request in several datagrams: memcached refuses it */
      mc_out_str(&c, "SERVER_ERROR multi-packet request not supported\r\n");
    } else {
      c.in.data = (char *)buf + UDP_HEADER;
      c.in.len = c.in.cap = (size_t)n - UDP_HEADER;
      c.proto = buf[UDP_HEADER] == 0x80 ? MC_PROTO_BINARY : MC_PROTO_TEXT;
      for (;;) {
        size_t before = c.in.start;
        if (c.proto == MC_PROTO_TEXT)
          mc_text_process(&c);
        else
          mc_binary_process(&c);
        if (c.closing || c.in.start == before || c.in.start == c.in.len)
          break;
      }
    }
    reply(fd, buf, &c, (struct sockaddr *)&from, fromlen);
    free(c.out.data);
  }
}
