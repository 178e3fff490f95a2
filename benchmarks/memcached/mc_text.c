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

#define MAX_TOKENS 23                /* memcached 1.6.45's tokenizer keeps 23 */
#define LINE_MAX_PLAIN 2048          /* a command line without its value */
#define LINE_MAX_RETRIEVAL (1 << 20) /* get/gets with many keys */
#define LINE_MIN 3 /* the shortest command line, without its newline */
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

/* The strict numbers of memcached 1.6.45's request tokens: digits only (a
 * leading '-' for the signed ones), no '+', no spaces, in range. */
static int digits_u64(const token *t, uint64_t *out) {
  if (t->n == 0 || t->n > 22)
    return 0;
  uint64_t v = 0;
  for (size_t i = 0; i < t->n; i++) {
    unsigned d = (unsigned char)t->s[i] - '0';
    if (d > 9 || v > (UINT64_MAX - d) / 10)
      return 0;
    v = v * 10 + d;
  }
  *out = v;
  return 1;
}

static int digits_i32(const token *t, int32_t *out) {
  int neg = t->n > 0 && t->s[0] == '-';
  token digits = {t->s + neg, t->n - (size_t)neg};
  uint64_t v;
  if (t->n > 11 || !digits_u64(&digits, &v) ||
      v > (uint64_t)INT32_MAX + (uint64_t)neg)
    return 0;
  *out = neg ? (int32_t)(0 - v) : (int32_t)v;
  return 1;
}

static int digits_u32(const token *t, uint32_t *out) {
  uint64_t v;
  if (t->n > 11 || !digits_u64(t, &v) || v > UINT32_MAX)
    return 0;
  *out = (uint32_t)v;
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

int mc_tok_i32(const mc_token *t, int32_t *out) { return digits_i32(t, out); }

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
    int32_t given;
    if (!digits_i32(&tok[1], &given)) {
      mc_out_str(c, "CLIENT_ERROR invalid exptime argument\r\n");
      return;
    }
    exptime = mc_expiry(given);
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
 * cas KEY FLAGS EXPTIME BYTES CAS [noreply]: the value's length (BYTES),
 * or -1 when the line is refused before it (fewer than 5 tokens, BYTES not
 * a length): then no value is read, and memcached parses it as a command.
 * Tokens after the ones used are ignored. */
static int64_t update_value_length(const token *tok, int ntok) {
  int32_t vlen;
  if (ntok < 5 || !digits_i32(&tok[4], &vlen) || vlen < 0 || vlen > INT_MAX - 2)
    return -1;
  return vlen;
}

/* The rest of the line, once the value's length is known: 1, or 0 when it
 * is refused (the value is then read and discarded). */
static int parse_update(const token *tok, int ntok, int is_cas, uint32_t *flags,
                        int64_t *exptime, uint64_t *cas_in) {
  if (!key_ok(&tok[1]) || !parse_u32(&tok[2], flags) ||
      !parse_i64(&tok[3], INT32_MIN, INT32_MAX, exptime))
    return 0;
  if (is_cas && (ntok < 6 || !digits_u64(&tok[5], cas_in)))
    return 0;
  *exptime = mc_expiry(*exptime);
  return 1;
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
  if (!digits_u64(&tok[2], &delta)) {
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

/* delete KEY [noreply]: memcached 1.6.45 ignores any other token (the
 * legacy hold time "0" included). */
static void cmd_delete(mc_conn *c, token *tok) {
  if (!key_ok(&tok[1])) {
    say(c, bad_format);
    return;
  }
  mc_prefix_record(tok[1].s, tok[1].n, MC_PREFIX_DELETE, 0);
  uint64_t nbytes;
  if (mc_delete_item(tok[1].s, tok[1].n, &nbytes) == MC_OK) {
    MC_COUNT(delete_hits, 1);
    mc_watch_deletion(tok[1].s, tok[1].n, 0, nbytes);
    say(c, "DELETED\r\n");
  } else {
    MC_COUNT(delete_misses, 1);
    say(c, "NOT_FOUND\r\n");
  }
}

static void cmd_touch(mc_conn *c, token *tok) {
  int32_t exptime;
  if (!key_ok(&tok[1])) {
    say(c, bad_format);
    return;
  }
  if (!digits_i32(&tok[2], &exptime)) {
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
  int32_t delay = 0;
  MC_COUNT(cmd_flush, 1);
  if (!mc_config.flush_enabled) {
    say(c, "CLIENT_ERROR flush_all not allowed\r\n");
    return;
  }
  if (ntok != (c->noreply ? 2 : 1) && !digits_i32(&tok[1], &delay)) {
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
    say(c, "SERVER_ERROR: shutdown not enabled\r\n");
    return;
  }
  if (ntok > 2 || (ntok == 2 && !is(&tok[1], "graceful"))) {
    say(c, "CLIENT_ERROR invalid shutdown mode\r\n");
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
static void cmd_verbosity(mc_conn *c, token *tok, int ntok) {
  uint32_t level;
  if (ntok < 2 || !digits_u32(&tok[1], &level)) {
    say(c, bad_format);
    return;
  }
  mc_config.verbose = level > 2 ? 2 : (int)level;
  say(c, "OK\r\n");
}

/* Splits LINE at spaces into at most MAX tokens; as memcached 1.6.45's
 * tokenizer, the rest of the line is ignored. */
static int tokenize(char *line, size_t n, token *tok, int max) {
  int ntok = 0;
  size_t i = 0;
  while (i < n && ntok < max) {
    while (i < n && line[i] == ' ')
      i++;
    if (i == n)
      break;
    tok[ntok].s = line + i;
    while (i < n && line[i] != ' ')
      i++;
    tok[ntok].n = (size_t)(line + i - tok[ntok].s);
    ntok++;
  }
  return ntok;
}

/* The command word: the bytes before the first space (none when the line
 * starts with one). memcached picks the command by this word; only the
 * administrative commands are looked up by their first token. */
static int word_is(const char *line, size_t wlen, const char *name) {
  return wlen == strlen(name) && memcmp(line, name, wlen) == 0;
}

static mc_store_op update_op(const char *line, size_t wlen) {
  static const struct {
    const char *name;
    mc_store_op op;
  } ops[] = {{"set", MC_SET},         {"add", MC_ADD},
             {"replace", MC_REPLACE}, {"append", MC_APPEND},
             {"prepend", MC_PREPEND}, {"cas", MC_CAS}};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (word_is(line, wlen, ops[i].name))
      return ops[i].op;
  return (mc_store_op)-1;
}

/* get/gets KEY... and gat/gats EXPTIME KEY...: every key of the line. */
static void run_retrieval(mc_conn *c, char *line, size_t n, size_t wlen) {
  int touch = line[1] == 'a';
  int with_cas = wlen == 4;
  token *many = malloc(sizeof(token) * (n / 2 + 2));
  if (!many) {
    mc_out_str(c, "SERVER_ERROR out of memory\r\n");
    return;
  }
  int ntok = tokenize(line, n, many, (int)(n / 2 + 1));
  if (ntok < (touch ? 3 : 2))
    mc_out_str(c, bad_format);
  else
    cmd_retrieve(c, many, ntok, with_cas, touch);
  free(many);
}

/* A storage command (update_op): returns the input used after the line, or
 * -1 when the value is not all there yet. A line refused once the value's
 * length is known has its value read and discarded (memcached 1.6.45). */
static int64_t run_update(mc_conn *c, mc_store_op op, token *tok, int ntok,
                          const char *value, size_t avail) {
  int64_t vlen = update_value_length(tok, ntok);
  if (vlen < 0) {
    mc_out_str(c, bad_format);
    return 0;
  }
  uint64_t need = (uint64_t)vlen + 2;
  uint32_t flags;
  int64_t exptime;
  uint64_t cas_in = 0;
  c->noreply = is_noreply(&tok[ntok - 1]);
  if (!parse_update(tok, ntok, op == MC_CAS, &flags, &exptime, &cas_in)) {
    say(c, bad_format);
    c->swallow = need;
    return 0;
  }
  mc_prefix_record(tok[1].s, tok[1].n, MC_PREFIX_SET, 0);
  if (mc_item_size_ok(tok[1].n, (uint64_t)vlen) == 0) {
    MC_COUNT(store_too_large, 1);
    say(c, "SERVER_ERROR object too large for cache\r\n");
    if (op == MC_SET)
      mc_delete(tok[1].s, tok[1].n);
    c->swallow = need;
    return 0;
  }
  if (avail < need)
    return -1;
  if (value[need - 2] != '\r' || value[need - 1] != '\n') {
    say(c, "CLIENT_ERROR bad data chunk\r\n");
    return (int64_t)need;
  }
  finish_update(c, op, &tok[1], flags, exptime, cas_in, value, (size_t)vlen);
  return (int64_t)need;
}

/* The commands memcached's parser knows by their word that take a key
 * (noreply applies): 1 if WORD was one of them. */
static int run_keyed(mc_conn *c, const char *line, size_t wlen, token *tok,
                     int ntok) {
  int incr = word_is(line, wlen, "incr");
  if (incr || word_is(line, wlen, "decr")) {
    if (ntok < 3)
      mc_out_str(c, bad_format);
    else
      cmd_arith(c, tok, incr);
  } else if (word_is(line, wlen, "touch")) {
    if (ntok < 3)
      mc_out_str(c, bad_format);
    else
      cmd_touch(c, tok);
  } else if (word_is(line, wlen, "delete")) {
    if (ntok < 2)
      mc_out_str(c, bad_format);
    else
      cmd_delete(c, tok);
  } else {
    return 0;
  }
  return 1;
}

/* The other commands memcached's parser knows by their word (no noreply):
 * 1 if WORD was one of them. */
static int run_plain(mc_conn *c, const char *line, size_t wlen, token *tok,
                     int ntok) {
  if (word_is(line, wlen, "stats")) {
    cmd_stats(c, tok, ntok);
  } else if (word_is(line, wlen, "version")) {
    mc_out_str(c, "VERSION " MC_VERSION "\r\n");
  } else if (word_is(line, wlen, "quit")) {
    c->closing = 1;
    c->close_reason = MC_CLOSE_NORMAL;
  } else if (word_is(line, wlen, "watch")) {
    mc_watch_command(c, tok, ntok);
  } else {
    return 0;
  }
  return 1;
}

/* The administrative commands, looked up by their first token; noreply
 * silences their replies. An unknown command gets ERROR, or the connection
 * is closed when its last token starts with HTTP/ (a web request). */
static void run_admin(mc_conn *c, token *tok, int ntok) {
  if (is(&tok[0], "flush_all"))
    cmd_flush(c, tok, ntok);
  else if (is(&tok[0], "verbosity"))
    cmd_verbosity(c, tok, ntok);
  else if (is(&tok[0], "shutdown"))
    cmd_shutdown(c, tok, ntok);
  else if (mc_admin_command(c, tok, ntok))
    ;
  else if (ntok > 1 && tok[ntok - 1].n >= 5 &&
           memcmp(tok[ntok - 1].s, "HTTP/", 5) == 0) {
    c->closing = 1;
    c->close_reason = MC_CLOSE_ERROR;
  } else
    say(c, "ERROR\r\n");
}

/* Handles one request whose line is LINE (N bytes, no newline); VALUE and
 * AVAIL are the input after the line. Returns the bytes of input used after
 * the line, or -1 when the value is not all there yet. The command is
 * chosen, and its line checked, as memcached 1.6.45 does. */
static int64_t dispatch(mc_conn *c, char *line, size_t n, const char *value,
                        size_t avail) {
  token tok[MAX_TOKENS + 1];
  const char *space = memchr(line, ' ', n);
  size_t wlen = space ? (size_t)(space - line) : n;
  if (word_is(line, wlen, "get") || word_is(line, wlen, "gets") ||
      word_is(line, wlen, "gat") || word_is(line, wlen, "gats")) {
    run_retrieval(c, line, n, wlen);
    return 0;
  }
  int ntok = tokenize(line, n, tok, MAX_TOKENS);
  if (wlen == 2 && line[0] == 'm' && memchr("gsdane", line[1], 6))
    return mc_meta_command(c, tok, ntok, value, avail);
  mc_store_op op = update_op(line, wlen);
  if ((int)op >= 0)
    return run_update(c, op, tok, ntok, value, avail);
  if (ntok == 0) { /* only spaces */
    mc_out_str(c, "ERROR\r\n");
    return 0;
  }
  if (run_plain(c, line, wlen, tok, ntok))
    return 0;
  c->noreply = is_noreply(&tok[ntok - 1]);
  if (!run_keyed(c, line, wlen, tok, ntok))
    run_admin(c, tok, ntok);
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

/* A line without its newline yet, AVAIL bytes: too long once over 2048
 * bytes, unless it is a multi-get (memcached: "get " or "gets " after at most
 * 100 spaces), which may reach LINE_MAX_RETRIEVAL. */
static int line_too_long(const char *p, size_t avail) {
  if (avail <= LINE_MAX_PLAIN)
    return 0;
  size_t spaces = 0;
  while (spaces < avail && p[spaces] == ' ')
    spaces++;
  const char *cmd = p + spaces;
  size_t left = avail - spaces;
  int multiget = spaces <= 100 && ((left >= 4 && memcmp(cmd, "get ", 4) == 0) ||
                                   (left >= 5 && memcmp(cmd, "gets ", 5) == 0));
  return !multiget || avail > LINE_MAX_RETRIEVAL;
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
      if (line_too_long(p, avail)) {
        c->closing = 1; /* memcached hangs up without a reply */
        c->close_reason = MC_CLOSE_ERROR;
      }
      return;
    }
    size_t linelen = (size_t)(nl - p);
    size_t n = linelen;
    if (n > 0 && p[n - 1] == '\r')
      n--;
    if (linelen < LINE_MIN && !(mc_config.auth_file && !c->authenticated)) {
      /* shorter than any command: memcached 1.6.45 refuses it as such */
      mc_out_str(c, bad_format);
      c->in.start += linelen + 1;
      served++;
      continue;
    }
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
