/*
 * mc_binary.c - memcached's binary protocol (24-byte headers, network byte
 * order): the commands libmemcached's clients send, their quiet variants,
 * and the error statuses memcached gives (docs/memcached.md).
 */
#include "mc_conn.h"
#include "mc_stats.h"
#include "mc_store.h"
#include "mc_text.h"
#include "mc_watch.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

#define REQ_MAGIC 0x80
#define RES_MAGIC 0x81
#define HEADER 24

enum {
  ST_OK = 0x00,
  ST_KEY_ENOENT = 0x01,
  ST_KEY_EEXISTS = 0x02,
  ST_E2BIG = 0x03,
  ST_EINVAL = 0x04,
  ST_NOT_STORED = 0x05,
  ST_DELTA_BADVAL = 0x06,
  ST_UNKNOWN_COMMAND = 0x81,
  ST_ENOMEM = 0x82
};

enum {
  OP_GET = 0x00,
  OP_SET = 0x01,
  OP_ADD = 0x02,
  OP_REPLACE = 0x03,
  OP_DELETE = 0x04,
  OP_INCREMENT = 0x05,
  OP_DECREMENT = 0x06,
  OP_QUIT = 0x07,
  OP_FLUSH = 0x08,
  OP_GETQ = 0x09,
  OP_NOOP = 0x0a,
  OP_VERSION = 0x0b,
  OP_GETK = 0x0c,
  OP_GETKQ = 0x0d,
  OP_APPEND = 0x0e,
  OP_PREPEND = 0x0f,
  OP_STAT = 0x10,
  OP_SETQ = 0x11,
  OP_ADDQ = 0x12,
  OP_REPLACEQ = 0x13,
  OP_DELETEQ = 0x14,
  OP_INCREMENTQ = 0x15,
  OP_DECREMENTQ = 0x16,
  OP_QUITQ = 0x17,
  OP_FLUSHQ = 0x18,
  OP_APPENDQ = 0x19,
  OP_PREPENDQ = 0x1a,
  OP_VERBOSITY = 0x1b,
  OP_TOUCH = 0x1c,
  OP_GAT = 0x1d,
  OP_GATQ = 0x1e,
  OP_GATK = 0x23,
  OP_GATKQ = 0x24
};

typedef struct request {
  uint8_t opcode;
  uint16_t keylen;
  uint8_t extlen;
  uint8_t datatype;
  uint32_t bodylen;
  uint32_t opaque;
  uint64_t cas;
  const unsigned char *ext;
  const char *key;
  const char *value;
  size_t nvalue;
} request;

static uint32_t get32(const unsigned char *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return be32toh(v);
}

static uint64_t get64(const unsigned char *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return be64toh(v);
}

static void respond(mc_conn *c, const request *rq, uint16_t status,
                    uint64_t cas, const void *ext, uint8_t extlen,
                    const void *key, uint16_t keylen, const void *value,
                    size_t nvalue) {
  unsigned char h[HEADER] = {RES_MAGIC, rq->opcode};
  uint16_t kl = htobe16(keylen), st = htobe16(status);
  uint32_t body = htobe32((uint32_t)(extlen + keylen + nvalue));
  uint64_t cs = htobe64(cas);
  memcpy(h + 2, &kl, 2);
  h[4] = extlen;
  memcpy(h + 6, &st, 2);
  memcpy(h + 8, &body, 4);
  memcpy(h + 12, &rq->opaque, 4); /* echoed as received */
  memcpy(h + 16, &cs, 8);
  mc_out(c, h, HEADER);
  if (extlen)
    mc_out(c, ext, extlen);
  if (keylen)
    mc_out(c, key, keylen);
  if (nvalue)
    mc_out(c, value, nvalue);
}

static void respond_error(mc_conn *c, const request *rq, uint16_t status) {
  const char *msg;
  switch (status) {
  case ST_KEY_ENOENT:
    msg = "Not found";
    break;
  case ST_KEY_EEXISTS:
    msg = "Data exists for key.";
    break;
  case ST_E2BIG:
    msg = "Too large.";
    break;
  case ST_NOT_STORED:
    msg = "Not stored.";
    break;
  case ST_DELTA_BADVAL:
    msg = "Non-numeric server-side value for incr or decr";
    break;
  case ST_UNKNOWN_COMMAND:
    msg = "Unknown command";
    break;
  case ST_ENOMEM:
    msg = "Out of memory";
    break;
  default:
    msg = "Invalid arguments";
    break;
  }
  respond(c, rq, status, 0, NULL, 0, NULL, 0, msg, strlen(msg));
}

static uint16_t status_of(mc_result r, uint8_t base_op) {
  switch (r) {
  case MC_OK:
    return ST_OK;
  case MC_NOT_STORED:
    if (base_op == OP_ADD)
      return ST_KEY_EEXISTS;
    if (base_op == OP_REPLACE)
      return ST_KEY_ENOENT;
    return ST_NOT_STORED;
  case MC_EXISTS:
    return ST_KEY_EEXISTS;
  case MC_NOT_FOUND:
    return ST_KEY_ENOENT;
  case MC_NON_NUMERIC:
    return ST_DELTA_BADVAL;
  case MC_TOO_LARGE:
    return ST_E2BIG;
  default:
    return ST_ENOMEM;
  }
}

/* Checks the shape of a request: extras length, key and value presence. */
static int shape_ok(const request *rq, int ext, int key, int value) {
  if (rq->extlen != ext && ext >= 0)
    return 0;
  if (key == 1 && (rq->keylen == 0 || rq->keylen > MC_KEY_MAX))
    return 0;
  if (key == 0 && rq->keylen != 0)
    return 0;
  return value || rq->nvalue == 0;
}

static void do_get(mc_conn *c, const request *rq, int quiet, int with_key,
                   int touch) {
  if (!shape_ok(rq, touch ? 4 : 0, 1, 0)) {
    respond_error(c, rq, ST_EINVAL);
    return;
  }
  int64_t exptime = touch ? mc_expiry((int32_t)get32(rq->ext)) : 0;
  uint32_t flags;
  size_t n;
  uint64_t cas;
  MC_COUNT(cmd_get, 1);
  if (touch)
    MC_COUNT(cmd_touch, 1);
  mc_result r =
      mc_get(rq->key, rq->keylen, touch, exptime, c->scratch, &flags, &n, &cas);
  if (mc_watching(MC_WATCH_FETCHERS))
    mc_watch_fetch(c->fd, rq->key, rq->keylen, mc_get_prior(r, flags, n));
  if (r == MC_OK) {
    MC_COUNT(get_hits, 1);
    uint32_t fl = htobe32(flags);
    respond(c, rq, ST_OK, cas, &fl, 4, rq->key, with_key ? rq->keylen : 0,
            c->scratch, n);
  } else {
    MC_COUNT(get_misses, 1);
    if (flags == MC_MISS_EXPIRED)
      MC_COUNT(get_expired, 1);
    else if (flags == MC_MISS_FLUSHED)
      MC_COUNT(get_flushed, 1);
    if (quiet)
      return;
    if (with_key)
      respond(c, rq, ST_KEY_ENOENT, 0, NULL, 0, rq->key, rq->keylen, NULL, 0);
    else
      respond_error(c, rq, ST_KEY_ENOENT);
  }
}

static void do_store(mc_conn *c, const request *rq, uint8_t base, int quiet) {
  int concat = base == OP_APPEND || base == OP_PREPEND;
  if (!shape_ok(rq, concat ? 0 : 8, 1, 1)) {
    respond_error(c, rq, ST_EINVAL);
    return;
  }
  uint32_t flags = concat ? 0 : get32(rq->ext);
  int64_t exptime = concat ? 0 : mc_expiry((int32_t)get32(rq->ext + 4));
  mc_store_op op;
  switch (base) {
  case OP_ADD:
    op = MC_ADD;
    break;
  case OP_REPLACE:
    op = rq->cas ? MC_CAS : MC_REPLACE;
    break;
  case OP_APPEND:
    op = MC_APPEND;
    break;
  case OP_PREPEND:
    op = MC_PREPEND;
    break;
  default:
    op = rq->cas ? MC_CAS : MC_SET;
    break;
  }
  uint64_t cas_out = 0;
  uint32_t prior;
  MC_COUNT(cmd_set, 1);
  mc_result r = mc_store(op, rq->key, rq->keylen, flags, exptime, rq->value,
                         rq->nvalue, rq->cas, &cas_out, &prior);
  if (mc_watching(MC_WATCH_FETCHERS | MC_WATCH_MUTATIONS))
    mc_watch_store(c->fd, rq->key, rq->keylen, op, r, exptime, rq->nvalue,
                   prior);
  if (op == MC_CAS)
    MC_COUNT(cas_hits, r == MC_OK);
  if (r == MC_OK) {
    if (!quiet)
      respond(c, rq, ST_OK, cas_out, NULL, 0, NULL, 0, NULL, 0);
    return;
  }
  if ((r == MC_TOO_LARGE || r == MC_NO_MEMORY) && op == MC_SET)
    mc_delete(rq->key, rq->keylen);
  respond_error(c, rq, status_of(r, base));
}

static void do_arith(mc_conn *c, const request *rq, int incr, int quiet) {
  if (!shape_ok(rq, 20, 1, 0)) {
    respond_error(c, rq, ST_EINVAL);
    return;
  }
  uint64_t delta = get64(rq->ext), initial = get64(rq->ext + 8);
  uint32_t exp = get32(rq->ext + 16);
  int create = exp != 0xffffffffu;
  uint64_t value, cas;
  mc_result r = mc_arith(rq->key, rq->keylen, incr, delta, create, initial, 0,
                         create ? mc_expiry((int32_t)exp) : 0, &value, &cas);
  if (r == MC_OK) {
    if (incr)
      MC_COUNT(incr_hits, 1);
    else
      MC_COUNT(decr_hits, 1);
    uint64_t be = htobe64(value);
    if (!quiet)
      respond(c, rq, ST_OK, cas, NULL, 0, NULL, 0, &be, 8);
    return;
  }
  if (r == MC_NOT_FOUND) {
    if (incr)
      MC_COUNT(incr_misses, 1);
    else
      MC_COUNT(decr_misses, 1);
  }
  respond_error(c, rq, status_of(r, OP_INCREMENT));
}

struct stat_ctx {
  mc_conn *c;
  const request *rq;
};

static void emit_binary(const char *name, const char *value, void *ctx) {
  struct stat_ctx *s = ctx;
  respond(s->c, s->rq, ST_OK, 0, NULL, 0, name, (uint16_t)strlen(name), value,
          strlen(value));
}

static void do_stat(mc_conn *c, const request *rq) {
  char group[32] = "";
  if (rq->extlen || rq->nvalue || rq->keylen >= sizeof group) {
    respond_error(c, rq, ST_EINVAL);
    return;
  }
  memcpy(group, rq->key, rq->keylen);
  struct stat_ctx ctx = {c, rq};
  if (strcmp(group, "reset") == 0) {
    mc_stats_reset();
  } else if (strcmp(group, "detail on") == 0 ||
             strcmp(group, "detail off") == 0) {
    __atomic_store_n(&mc_config.detail_enabled, group[8] == 'n',
                     __ATOMIC_RELAXED);
  } else if (strcmp(group, "detail dump") == 0) {
    /* memcached: the text dump as the value of one stat, "detailed" */
    mc_conn dump;
    memset(&dump, 0, sizeof dump);
    mc_prefix_dump(&dump);
    mc_out(&dump, "", 1);
    if (dump.out.data)
      emit_binary("detailed", dump.out.data, &ctx);
    free(dump.out.data);
  } else if (strcmp(group, "") == 0 || strcmp(group, "settings") == 0 ||
             strcmp(group, "items") == 0 || strcmp(group, "slabs") == 0 ||
             strcmp(group, "sizes") == 0 || strcmp(group, "ptm") == 0) {
    mc_stats_each(emit_binary, &ctx, group);
  } else {
    respond_error(c, rq, ST_KEY_ENOENT);
    return;
  }
  respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, NULL, 0); /* terminator */
}

static void execute(mc_conn *c, const request *rq) {
  uint8_t op = rq->opcode;
  switch (op) {
  case OP_GET:
  case OP_GETQ:
  case OP_GETK:
  case OP_GETKQ:
    do_get(c, rq, op == OP_GETQ || op == OP_GETKQ,
           op == OP_GETK || op == OP_GETKQ, 0);
    return;
  case OP_GAT:
  case OP_GATQ:
  case OP_GATK:
  case OP_GATKQ:
    do_get(c, rq, op == OP_GATQ || op == OP_GATKQ,
           op == OP_GATK || op == OP_GATKQ, 1);
    return;
  case OP_SET:
  case OP_ADD:
  case OP_REPLACE:
  case OP_APPEND:
  case OP_PREPEND:
    do_store(c, rq, op, 0);
    return;
  case OP_SETQ:
    do_store(c, rq, OP_SET, 1);
    return;
  case OP_ADDQ:
    do_store(c, rq, OP_ADD, 1);
    return;
  case OP_REPLACEQ:
    do_store(c, rq, OP_REPLACE, 1);
    return;
  case OP_APPENDQ:
    do_store(c, rq, OP_APPEND, 1);
    return;
  case OP_PREPENDQ:
    do_store(c, rq, OP_PREPEND, 1);
    return;
  case OP_DELETE:
  case OP_DELETEQ:
    if (!shape_ok(rq, 0, 1, 0)) {
      respond_error(c, rq, ST_EINVAL);
    } else if (mc_delete(rq->key, rq->keylen) == MC_OK) {
      MC_COUNT(delete_hits, 1);
      if (op == OP_DELETE)
        respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, NULL, 0);
    } else {
      MC_COUNT(delete_misses, 1);
      respond_error(c, rq, ST_KEY_ENOENT);
    }
    return;
  case OP_INCREMENT:
  case OP_DECREMENT:
  case OP_INCREMENTQ:
  case OP_DECREMENTQ:
    do_arith(c, rq, op == OP_INCREMENT || op == OP_INCREMENTQ,
             op == OP_INCREMENTQ || op == OP_DECREMENTQ);
    return;
  case OP_QUIT:
  case OP_QUITQ:
    if (op == OP_QUIT)
      respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, NULL, 0);
    c->closing = 1;
    c->close_reason = MC_CLOSE_NORMAL;
    return;
  case OP_FLUSH:
  case OP_FLUSHQ:
    if ((rq->extlen != 0 && rq->extlen != 4) || !shape_ok(rq, -1, 0, 0)) {
      respond_error(c, rq, ST_EINVAL);
      return;
    }
    MC_COUNT(cmd_flush, 1);
    mc_flush_all(rq->extlen ? (int64_t)get32(rq->ext) : 0);
    if (op == OP_FLUSH)
      respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, NULL, 0);
    return;
  case OP_NOOP:
    if (!shape_ok(rq, 0, 0, 0))
      respond_error(c, rq, ST_EINVAL);
    else
      respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, NULL, 0);
    return;
  case OP_VERSION:
    if (!shape_ok(rq, 0, 0, 0))
      respond_error(c, rq, ST_EINVAL);
    else
      respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, MC_VERSION,
              strlen(MC_VERSION));
    return;
  case OP_VERBOSITY:
    if (!shape_ok(rq, 4, 0, 0))
      respond_error(c, rq, ST_EINVAL);
    else
      respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, NULL, 0);
    return;
  case OP_TOUCH:
    if (!shape_ok(rq, 4, 1, 0)) {
      respond_error(c, rq, ST_EINVAL);
      return;
    }
    MC_COUNT(cmd_touch, 1);
    if (mc_touch(rq->key, rq->keylen, mc_expiry((int32_t)get32(rq->ext))) ==
        MC_OK) {
      MC_COUNT(touch_hits, 1);
      respond(c, rq, ST_OK, 0, NULL, 0, NULL, 0, NULL, 0);
    } else {
      MC_COUNT(touch_misses, 1);
      respond_error(c, rq, ST_KEY_ENOENT);
    }
    return;
  case OP_STAT:
    do_stat(c, rq);
    return;
  default:
    respond_error(c, rq, ST_UNKNOWN_COMMAND);
    return;
  }
}

void mc_binary_process(mc_conn *c) {
  while (!c->closing && c->out.len < MC_OUT_HIGH_WATER) {
    const unsigned char *p = (const unsigned char *)c->in.data + c->in.start;
    size_t avail = c->in.len - c->in.start;
    if (c->swallow) {
      if (mc_swallow(c))
        return;
      continue;
    }
    if (avail < HEADER)
      return;
    request rq;
    rq.opcode = p[1];
    rq.keylen = (uint16_t)(p[2] << 8 | p[3]);
    rq.extlen = p[4];
    rq.datatype = p[5];
    rq.bodylen = get32(p + 8);
    memcpy(&rq.opaque, p + 12, 4);
    rq.cas = get64(p + 16);
    if (p[0] != REQ_MAGIC) {
      /* memcached closes a connection that sends a bad magic byte */
      c->closing = 1;
      return;
    }
    if ((uint64_t)rq.extlen + rq.keylen > rq.bodylen || rq.datatype != 0 ||
        rq.keylen > MC_KEY_MAX) {
      /* an inconsistent header: the stream cannot be resynchronized */
      respond_error(c, &rq, ST_EINVAL);
      c->closing = 1;
      return;
    }
    uint64_t nvalue = rq.bodylen - rq.extlen - rq.keylen;
    if (!mc_item_size_ok(rq.keylen, nvalue)) {
      if (rq.opcode == OP_SET || rq.opcode == OP_SETQ) {
        /* as the text protocol: a refused set removes the old value */
        size_t keyend = HEADER + (size_t)rq.extlen + rq.keylen;
        if (avail < keyend)
          return; /* wait for the key */
        mc_delete((const char *)p + HEADER + rq.extlen, rq.keylen);
      }
      respond_error(c, &rq, ST_E2BIG);
      c->in.start += HEADER;
      c->swallow = rq.bodylen;
      continue;
    }
    if (avail < HEADER + (size_t)rq.bodylen)
      return;
    rq.ext = p + HEADER;
    rq.key = (const char *)rq.ext + rq.extlen;
    rq.value = rq.key + rq.keylen;
    rq.nvalue = (size_t)nvalue;
    execute(c, &rq);
    c->in.start += HEADER + rq.bodylen;
  }
}
