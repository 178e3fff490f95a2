/*
 * mc_conn.c - a connection's buffers.
 */
#include "mc_conn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mc_buf_reserve(mc_buf *b, size_t n) {
  if (b->start > 0 && b->start == b->len)
    b->start = b->len = 0;
  if (b->len + n <= b->cap)
    return 0;
  if (b->start > 0) { /* slide the unconsumed bytes to the front */
    memmove(b->data, b->data + b->start, b->len - b->start);
    b->len -= b->start;
    b->start = 0;
    if (b->len + n <= b->cap)
      return 0;
  }
  size_t cap = b->cap ? b->cap : 4096;
  while (cap < b->len + n)
    cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p)
    return -1;
  b->data = p;
  b->cap = cap;
  return 0;
}

void mc_out(mc_conn *c, const void *data, size_t n) {
  if (mc_buf_reserve(&c->out, n) != 0) {
    c->closing = 1;
    return;
  }
  memcpy(c->out.data + c->out.len, data, n);
  c->out.len += n;
}

void mc_out_str(mc_conn *c, const char *s) { mc_out(c, s, strlen(s)); }

void mc_outf(mc_conn *c, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (n >= (int)sizeof buf)
    n = sizeof buf - 1;
  if (n > 0)
    mc_out(c, buf, (size_t)n);
}

int mc_swallow(mc_conn *c) {
  size_t avail = c->in.len - c->in.start;
  size_t n = avail < c->swallow ? avail : (size_t)c->swallow;
  c->swallow -= n;
  c->in.start += n;
  return c->swallow != 0;
}
