/*
 * mc_text.c - memcached's text protocol: parses requests from a
 * connection's input, runs them on the store (mc_store.h), writes replies.
 * Replies and error strings are memcached 1.6's (docs/memcached.md lists the
 * commands and what differs).
 */
#include "mc_text.h"
#include "mc_auth.h"
#include "mc_conn.h"
#include "mc_stats.h"
#include "mc_store.h"
#include "mc_watch.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 24
#define LINE_MAX_PLAIN 2048          /* a command line without its value */
#define LINE_MAX_RETRIEVAL (1 << 20) /* get/gets/gat/gats with many keys */
#define REALTIME_MAXDELTA (60 * 60 * 24 * 30)

typedef mc_token token;

static const char bad_format[] = "CLIENT_ERROR bad command line format\r\n";

/* ---- Number parsing (the whole token, decimal) ---------------------------
 */

static int parse_u64(const token *t, uint64_t *out) {
  if (t->n == 0 || t->n > 20 || t->s[0] == '-')
    return 0;
  char buf[24], *end;
  memcpy(buf, t->s, t->n);
  buf[t->n] = 0;
  errno = 0;
  unsigned long long v = strtoull(buf, &end, 10);
  if (errno || *end || end == buf)
    return 0;
  *out = v;
  return 1;
}

static int parse_u32(const token *t, uint32_t *out) {
  uint64_t v;
  if (!parse_u64(t, &v) || v > UINT32_MAX)
    return 0;
  *out = (uint32_t)v;
  return 1;
}

static int parse_i64(const token *t, int64_t lo, int64_t hi, int64_t *out) {
  if (t->n == 0 || t->n > 20)
    return 0;
  char buf[24], *end;
  memcpy(buf, t->s, t->n);
  buf[t->n] = 0;
  errno = 0;
  long long v = strtoll(buf, &end, 10);
  if (errno || *end || end == buf || v < lo || v > hi)
    return 0;
  *out = v;
  return 1;
}

/* memcached's expiry rule: 0 never; up to 30 days relative; larger values
 * are unix times; negative means already expired. */
int64_t mc_expiry(int64_t exptime) {
  if (exptime == 0)
    return 0;
  if (exptime < 0)
    return 1;
  if (exptime > REALTIME_MAXDELTA)
    return exptime;
  return mc_now() + exptime;
}

/* ---- Commands --------------------------------------------------------------
 */

int mc_tok_is(const mc_token *t, const char *name) {
  size_t n = strlen(name);
  return t->n == n && memcmp(t->s, name, n) == 0;
}

static int is(const token *t, const char *name) { return mc_tok_is(t, name); }

int mc_tok_u64(const mc_token *t, uint64_t *out) { return parse_u64(t, out); }

static int is_noreply(const token *t) {
  return t->n == 7 && memcmp(t->s, "noreply", 7) == 0;
}

/* A reply of a command that takes noreply: memcached silences every reply
 * of such a command once its last token is "noreply", errors included (a
 * pipelining client counts on it). */
static void say(mc_conn *c, const char *s) {
  if (!c->noreply)
    mc_out_str(c, s);
}

static int key_ok(const token *t) { return t->n > 0 && t->n <= MC_KEY_MAX; }

static void emit_value(mc_conn *c, const token *key, uint32_t flags, size_t n,
                       int with_cas, uint64_t cas) {
  if (with_cas)
    mc_outf(c, "VALUE %.*s %" PRIu32 " %zu %" PRIu64 "\r\n", (int)key->n,
            key->s, flags, n, cas);
  else
    mc_outf(c, "VALUE %.*s %" PRIu32 " %zu\r\n", (int)key->n, key->s, flags, n);
  mc_out(c, c->scratch, n);
  mc_out(c, "\r\n", 2);
}

/* get/gets KEY... and gat/gats EXPTIME KEY... */
static void cmd_retrieve(mc_conn *c, token *tok, int ntok, int with_cas,
                         int touch) {
  int first = 1;
  int64_t exptime = 0;
  if (touch) {
    if (!parse_i64(&tok[1], INT32_MIN, INT32_MAX, &exptime)) {
      mc_out_str(c, "CLIENT_ERROR invalid exptime argument\r\n");
      return;
    }
    exptime = mc_expiry(exptime);
    first = 2;
  }
  size_t out_before = c->out.len;
  for (int i = first; i < ntok; i++) {
    if (!key_ok(&tok[i])) {
      /* memcached drops the values already found: the error alone */
      c->out.len = out_before;
      mc_out_str(c, bad_format);
      return;
    }
    uint32_t flags;
    size_t n;
    uint64_t cas;
    mc_result r = mc_get(tok[i].s, tok[i].n, touch, exptime, c->scratch, &flags,
                         &n, &cas);
    if (mc_watching(MC_WATCH_FETCHERS))
      mc_watch_fetch(c->fd, tok[i].s, tok[i].n, mc_get_prior(r, flags, n));
    if (touch)
      MC_COUNT(cmd_touch, 1);
    MC_COUNT(cmd_get, 1);
    mc_prefix_record(tok[i].s, tok[i].n, MC_PREFIX_GET, r == MC_OK);
    if (r == MC_OK) {
      MC_COUNT(get_hits, 1);
      if (touch)
        MC_COUNT(touch_hits, 1);
      emit_value(c, &tok[i], flags, n, with_cas, cas);
    } else {
      MC_COUNT(get_misses, 1);
      if (flags == MC_MISS_EXPIRED)
        MC_COUNT(get_expired, 1);
      else if (flags == MC_MISS_FLUSHED)
        MC_COUNT(get_flushed, 1);
      if (touch)
        MC_COUNT(touch_misses, 1);
    }
  }
  mc_out_str(c, "END\r\n");
}

/* set/add/replace/append/prepend KEY FLAGS EXPTIME BYTES [noreply] and
 * cas KEY FLAGS EXPTIME BYTES CAS [noreply]. Returns the number of input
 * bytes the value needs after the line (BYTES + 2), or -1 when the line
 * itself was rejected (no value is read: memcached then parses the value
 * as a command). */
static int64_t parse_update(mc_conn *c, token *tok, int is_cas, uint32_t *flags,
                            int64_t *exptime, uint64_t *cas_in) {
  int64_t vlen;
  if (!key_ok(&tok[1]) || !parse_u32(&tok[2], flags) ||
      !parse_i64(&tok[3], INT32_MIN, INT32_MAX, exptime) ||
      !parse_i64(&tok[4], INT32_MIN, INT32_MAX, &vlen) ||
      (is_cas && !parse_u64(&tok[5], cas_in)) || vlen < 0 ||
      vlen > INT_MAX - 2) {
    say(c, bad_format);
    return -1;
  }
  *exptime = mc_expiry(*exptime);
  return vlen + 2;
}

static void finish_update(mc_conn *c, mc_store_op op, const token *key,
                          uint32_t flags, int64_t exptime, uint64_t cas_in,
                          const char *data, size_t n) {
  uint64_t cas_out;
  uint32_t prior;
  MC_COUNT(cmd_set, 1);
  mc_result r = mc_store(op, key->s, key->n, flags, exptime, data, n, cas_in,
                         &cas_out, &prior);
  if (mc_watching(MC_WATCH_FETCHERS | MC_WATCH_MUTATIONS))
    mc_watch_store(c->fd, key->s, key->n, op, r, exptime, n, prior);
  switch (r) {
  case MC_OK:
    if (op == MC_CAS)
      MC_COUNT(cas_hits, 1);
    say(c, "STORED\r\n");
    break;
  case MC_NOT_STORED:
    say(c, "NOT_STORED\r\n");
    break;
  case MC_EXISTS:
    MC_COUNT(cas_badval, 1);
    say(c, "EXISTS\r\n");
    break;
  case MC_NOT_FOUND:
    MC_COUNT(cas_misses, 1);
    say(c, "NOT_FOUND\r\n");
    break;
  case MC_TOO_LARGE:
    MC_COUNT(store_too_large, 1);
    say(c, "SERVER_ERROR object too large for cache\r\n");
    break;
  default:
    MC_COUNT(store_no_memory, 1);
    say(c, "SERVER_ERROR out of memory storing object\r\n");
    /* memcached: a failed set does not leave the old value in place */
    if (op == MC_SET)
      mc_delete(key->s, key->n);
    break;
  }
}

static void cmd_arith(mc_conn *c, token *tok, int incr) {
  uint64_t delta, value;
  if (!key_ok(&tok[1])) {
    say(c, bad_format);
    return;
  }
  if (!parse_u64(&tok[2], &delta)) {
    say(c, "CLIENT_ERROR invalid numeric delta argument\r\n");
    return;
  }
  mc_result r =
      mc_arith(tok[1].s, tok[1].n, incr, delta, 0, 0, 0, 0, &value, NULL);
  if (r == MC_OK) {
    if (incr)
      MC_COUNT(incr_hits, 1);
    else
      MC_COUNT(decr_hits, 1);
    if (!c->noreply)
      mc_outf(c, "%" PRIu64 "\r\n", value);
  } else if (r == MC_NOT_FOUND) {
    if (incr)
      MC_COUNT(incr_misses, 1);
    else
      MC_COUNT(decr_misses, 1);
    say(c, "NOT_FOUND\r\n");
  } else if (r == MC_NON_NUMERIC) {
    say(c, "CLIENT_ERROR cannot increment or decrement non-numeric value\r\n");
  } else {
    say(c, "SERVER_ERROR out of memory\r\n");
  }
}

static void cmd_delete(mc_conn *c, token *tok, int ntok) {
  int noreply = c->noreply;
  if (ntok > 2) {
    int hold_is_zero = tok[2].n == 1 && tok[2].s[0] == '0';
    int valid = (ntok == 3 && (hold_is_zero || noreply)) ||
                (ntok == 4 && hold_is_zero && noreply);
    if (!valid) {
      say(c, "CLIENT_ERROR bad command line format.  Usage: delete "
             "<key> [noreply]\r\n");
      return;
    }
  }
  if (!key_ok(&tok[1])) {
    say(c, bad_format);
    return;
  }
  mc_prefix_record(tok[1].s, tok[1].n, MC_PREFIX_DELETE, 0);
  if (mc_delete(tok[1].s, tok[1].n) == MC_OK) {
    MC_COUNT(delete_hits, 1);
    say(c, "DELETED\r\n");
  } else {
    MC_COUNT(delete_misses, 1);
    say(c, "NOT_FOUND\r\n");
  }
}

static void cmd_touch(mc_conn *c, token *tok) {
  int64_t exptime;
  if (!key_ok(&tok[1])) {
    say(c, bad_format);
    return;
  }
  if (!parse_i64(&tok[2], INT32_MIN, INT32_MAX, &exptime)) {
    say(c, "CLIENT_ERROR invalid exptime argument\r\n");
    return;
  }
  MC_COUNT(cmd_touch, 1);
  if (mc_touch(tok[1].s, tok[1].n, mc_expiry(exptime)) == MC_OK) {
    MC_COUNT(touch_hits, 1);
    say(c, "TOUCHED\r\n");
  } else {
    MC_COUNT(touch_misses, 1);
    say(c, "NOT_FOUND\r\n");
  }
}

/* flush_all [DELAY] [noreply]: as memcached, a DELAY that is not a number is
 * an invalid exptime and a negative one means now. */
static void cmd_flush(mc_conn *c, token *tok, int ntok) {
  int64_t delay = 0;
  MC_COUNT(cmd_flush, 1);
  if (!mc_config.flush_enabled) {
    say(c, "CLIENT_ERROR flush_all not allowed\r\n");
    return;
  }
  if (ntok != (c->noreply ? 2 : 1) &&
      !parse_i64(&tok[1], INT32_MIN, INT32_MAX, &delay)) {
    say(c, "CLIENT_ERROR invalid exptime argument\r\n");
    return;
  }
  if (delay < 0)
    delay = 0;
  /* an absolute time is turned into a delay, as memcached does */
  if (delay > REALTIME_MAXDELTA)
    delay = delay > mc_now() ? delay - mc_now() : 0;
  /* without cas (-C) the cliff is a second, as memcached's: items stored
   * in the flush's second are flushed too */
  mc_flush_all(delay == 0 && !mc_config.cas_enabled ? 1 : delay);
  say(c, "OK\r\n");
}

/* shutdown [graceful]: with -A, stops the server (a clean stop: the pool
 * holds every acknowledged store either way). */
static void cmd_shutdown(mc_conn *c, token *tok, int ntok) {
  if (!mc_config.shutdown_enabled) {
    mc_out_str(c, "ERROR: shutdown not enabled\r\n");
    return;
  }
  if (ntok > 2 || (ntok == 2 && !is(&tok[1], "graceful"))) {
    mc_out_str(c, "CLIENT_ERROR invalid shutdown mode\r\n");
    return;
  }
  c->closing = 1;
  c->close_reason = MC_CLOSE_SHUTDOWN;
  mc_server_shutdown(ntok == 2);
}

static void cmd_stats(mc_conn *c, token *tok, int ntok) {
  if (ntok == 1) {
    mc_stats_text(c, "");
    return;
  }
  if (mc_admin_stats(c, tok, ntok))
    return;
  char group[32];
  if (ntok > 2 || tok[1].n >= sizeof group) {
    mc_out_str(c, "ERROR\r\n");
    return;
  }
  memcpy(group, tok[1].s, tok[1].n);
  group[tok[1].n] = 0;
  if (strcmp(group, "reset") == 0) {
    mc_stats_reset();
    mc_prefix_clear();
    mc_out_str(c, "RESET\r\n");
  } else if (mc_stats_text(c, group) != 0) {
    mc_out_str(c, "ERROR\r\n");
  }
}

/* verbosity LEVEL [noreply] */
static void cmd_verbosity(mc_conn *c, token *tok) {
  uint32_t level;
  if (!parse_u32(&tok[1], &level)) {
    say(c, bad_format);
    return;
  }
  mc_config.verbose = level > 2 ? 2 : (int)level;
  say(c, "OK\r\n");
}

static int tokenize(char *line, size_t n, token *tok, int max) {
  int ntok = 0;
  size_t i = 0;
  while (i < n) {
    while (i < n && line[i] == ' ')
      i++;
    if (i == n)
      break;
    if (ntok == max)
      return max + 1; /* too many */
    tok[ntok].s = line + i;
    while (i < n && line[i] != ' ')
      i++;
    tok[ntok].n = (size_t)(line + i - tok[ntok].s);
    ntok++;
  }
  return ntok;
}

static mc_store_op update_op(const token *t) {
  if (is(t, "set"))
    return MC_SET;
  if (is(t, "add"))
    return MC_ADD;
  if (is(t, "replace"))
    return MC_REPLACE;
  if (is(t, "append"))
    return MC_APPEND;
  if (is(t, "prepend"))
    return MC_PREPEND;
  if (is(t, "cas"))
    return MC_CAS;
  return (mc_store_op)-1;
}

/* Handles one request whose line is LINE (N bytes, no newline); VALUE and
 * AVAIL are the input after the line. Returns the bytes of input used after
 * the line, or -1 when the value is not all there yet. */
static int64_t dispatch(mc_conn *c, char *line, size_t n, const char *value,
                        size_t avail) {
  token tok[MAX_TOKENS + 1];
  int ntok;
  int retrieval =
      (n >= 3 && (memcmp(line, "get", 3) == 0 || memcmp(line, "gat", 3) == 0));
  if (retrieval) {
    /* many keys: tokenize without the usual limit */
    token *many = malloc(sizeof(token) * (n / 2 + 2));
    if (!many) {
      mc_out_str(c, "SERVER_ERROR out of memory\r\n");
      return 0;
    }
    ntok = tokenize(line, n, many, (int)(n / 2 + 1));
    if (ntok >= 2 && (is(&many[0], "get") || is(&many[0], "gets")))
      cmd_retrieve(c, many, ntok, is(&many[0], "gets"), 0);
    else if (ntok >= 3 && (is(&many[0], "gat") || is(&many[0], "gats")))
      cmd_retrieve(c, many, ntok, is(&many[0], "gats"), 1);
    else
      mc_out_str(c, "ERROR\r\n");
    free(many);
    return 0;
  }
  ntok = tokenize(line, n, tok, MAX_TOKENS);
  if (ntok == 0 || ntok > MAX_TOKENS) {
    mc_out_str(c, "ERROR\r\n");
    return 0;
  }
  if (tok[0].n == 2 && tok[0].s[0] == 'm' && strchr("gsdane", tok[0].s[1]))
    return mc_meta_command(c, tok, ntok, value, avail);
  mc_store_op op = update_op(&tok[0]);
  if ((int)op >= 0) {
    int is_cas = op == MC_CAS;
    if (ntok != (is_cas ? 6 : 5) && ntok != (is_cas ? 7 : 6)) {
      mc_out_str(c, "ERROR\r\n");
      return 0;
    }
    uint32_t flags;
    int64_t exptime;
    uint64_t cas_in = 0;
    c->noreply = is_noreply(&tok[ntok - 1]);
    int64_t need = parse_update(c, tok, is_cas, &flags, &exptime, &cas_in);
    if (need < 0)
      return 0;
    mc_prefix_record(tok[1].s, tok[1].n, MC_PREFIX_SET, 0);
    if (mc_item_size_ok(tok[1].n, (uint64_t)need - 2) == 0) {
      MC_COUNT(store_too_large, 1);
      say(c, "SERVER_ERROR object too large for cache\r\n");
      if (op == MC_SET)
        mc_delete(tok[1].s, tok[1].n);
      c->swallow = (uint64_t)need;
      return 0;
    }
    if (avail < (uint64_t)need)
      return -1;
    if (value[need - 2] != '\r' || value[need - 1] != '\n') {
      say(c, "CLIENT_ERROR bad data chunk\r\n");
      return need;
    }
    finish_update(c, op, &tok[1], flags, exptime, cas_in, value,
                  (size_t)need - 2);
    return need;
  }
  /* the commands that take noreply (delete only with more than a key) */
  c->noreply = (ntok > 2 || !is(&tok[0], "delete")) && ntok > 1 &&
               is_noreply(&tok[ntok - 1]);
  if ((ntok == 3 || ntok == 4) && (is(&tok[0], "incr") || is(&tok[0], "decr")))
    cmd_arith(c, tok, is(&tok[0], "incr"));
  else if (ntok >= 2 && ntok <= 4 && is(&tok[0], "delete"))
    cmd_delete(c, tok, ntok);
  else if ((ntok == 3 || ntok == 4) && is(&tok[0], "touch"))
    cmd_touch(c, tok);
  else if (ntok <= 3 && is(&tok[0], "flush_all"))
    cmd_flush(c, tok, ntok);
  else if (is(&tok[0], "stats"))
    cmd_stats(c, tok, ntok);
  else if (is(&tok[0], "version")) /* memcached ignores arguments here */
    mc_out_str(c, "VERSION " MC_VERSION "\r\n");
  else if (is(&tok[0], "quit")) {
    c->closing = 1;
    c->close_reason = MC_CLOSE_NORMAL;
  } else if (is(&tok[0], "watch"))
    mc_watch_command(c, tok, ntok);
  else if ((ntok == 2 || ntok == 3) && is(&tok[0], "verbosity"))
    cmd_verbosity(c, tok);
  else if (is(&tok[0], "shutdown"))
    cmd_shutdown(c, tok, ntok);
  else if (mc_admin_command(c, tok, ntok))
    ;
  else if (tok[ntok - 1].n >= 5 && memcmp(tok[ntok - 1].s, "HTTP/", 5) == 0)
    c->closing = 1; /* an HTTP request: hang up, as memcached does */
  else
    mc_out_str(c, "ERROR\r\n");
  return 0;
}

/* -Y: the first request of a connection must be a set whose value is
 * "user password" (memcached's ASCII authentication). Returns the input
 * used after the line, or -1 when the value is not all there yet. */
static int64_t authenticate(mc_conn *c, char *line, size_t n, const char *value,
                            size_t avail) {
  token tok[MAX_TOKENS + 1];
  int ntok = tokenize(line, n, tok, MAX_TOKENS);
  uint32_t size;
  if (ntok < 5 || ntok > MAX_TOKENS || !is(&tok[0], "set") ||
      !parse_u32(&tok[4], &size) || size > 1024) {
    mc_out_str(c, "CLIENT_ERROR unauthenticated\r\n");
    return 0;
  }
  if (avail < (size_t)size + 2)
    return -1;
  if (value[size] != '\r' || value[size + 1] != '\n') {
    mc_out_str(c, "CLIENT_ERROR bad command line termination\r\n");
    return (int64_t)size + 2;
  }
  char cred[1025];
  memcpy(cred, value, size);
  cred[size] = '\0';
  token ct[3];
  int nct = tokenize(cred, size, ct, 2);
  if (nct != 2) {
    mc_out_str(c, "CLIENT_ERROR bad authentication token format\r\n");
    return (int64_t)size + 2;
  }
  ct[0].s[ct[0].n] = '\0';
  ct[1].s[ct[1].n] = '\0';
  MC_COUNT(auth_cmds, 1);
  if (mc_auth_check(ct[0].s, ct[1].s)) {
    c->authenticated = 1;
    mc_out_str(c, "STORED\r\n");
  } else {
    MC_COUNT(auth_errors, 1);
    mc_out_str(c, "CLIENT_ERROR authentication failure\r\n");
  }
  return (int64_t)size + 2;
}

void mc_text_process(mc_conn *c) {
  int served = 0;
  while (!c->closing && !c->watcher && c->out.len < MC_OUT_HIGH_WATER) {
    if (served == mc_config.reqs_per_event) {
      /* -R: let the worker's other connections in (the caller comes back
       * for the rest) */
      MC_COUNT(conn_yields, 1);
      return;
    }
    char *p = c->in.data + c->in.start;
    size_t avail = c->in.len - c->in.start;
    if (c->swallow) {
      if (mc_swallow(c))
        return;
      continue;
    }
    if (avail == 0)
      return;
    char *nl = memchr(p, '\n', avail);
    if (!nl) {
      int retrieval =
          avail >= 3 && (memcmp(p, "get", 3) == 0 || memcmp(p, "gat", 3) == 0);
      if (avail > (retrieval ? LINE_MAX_RETRIEVAL : LINE_MAX_PLAIN)) {
        mc_out_str(c, "CLIENT_ERROR line too long\r\n");
        c->closing = 1;
      }
      return;
    }
    size_t linelen = (size_t)(nl - p);
    size_t n = linelen;
    if (n > 0 && p[n - 1] == '\r')
      n--;
    int64_t used = mc_config.auth_file && !c->authenticated
                       ? authenticate(c, p, n, nl + 1, avail - linelen - 1)
                       : dispatch(c, p, n, nl + 1, avail - linelen - 1);
    c->noreply = 0;
    served++;
    if (used < 0)
      return; /* the value is not all there yet */
    c->in.start += linelen + 1 + (size_t)used;
  }
}
