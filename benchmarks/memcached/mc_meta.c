/*
 * mc_meta.c - memcached's meta commands: mg (get), ms (set), md (delete),
 * ma (arithmetic), mn (no-op), me (debug). A request is the command, the
 * key and one-letter flags, some with a token ("T30", "Oabc"); the reply
 * is a two-letter code and the requested return flags, in request order,
 * then W (this client wins the recache), X (stale), Z (a win was already
 * handed out) as memcached 1.6 sends them (docs/memcached.md).
 */
#include "mc_conn.h"
#include "mc_layout.h"
#include "mc_stats.h"
#include "mc_store.h"
#include "mc_text.h"
#include "mc_watch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define META_MAX_OPAQUE 32
#define MC_KEY_MAX_B64 ((MC_KEY_MAX + 2) / 3 * 4)

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int b64_value(char ch) {
  const char *p = ch ? strchr(b64, ch) : NULL;
  return p ? (int)(p - b64) : -1;
}

/* Decodes N base64 bytes (with padding) into OUT; the length, or -1. */
static int b64_decode(const char *s, size_t n, char *out, size_t cap) {
  if (n == 0 || n % 4 != 0)
    return -1;
  size_t o = 0;
  for (size_t i = 0; i < n; i += 4) {
    int v[4], pad = 0;
    for (int j = 0; j < 4; j++) {
      if (s[i + j] == '=' && i + 4 == n && j >= 2) {
        v[j] = 0;
        pad++;
      } else if ((v[j] = b64_value(s[i + j])) < 0 || pad) {
        return -1;
      }
    }
    uint32_t w = (uint32_t)(v[0] << 18 | v[1] << 12 | v[2] << 6 | v[3]);
    if (o + 3 - (size_t)pad > cap)
      return -1;
    out[o++] = (char)(w >> 16);
    if (pad < 2)
      out[o++] = (char)(w >> 8);
    if (pad < 1)
      out[o++] = (char)w;
  }
  return (int)o;
}

void mc_meta_b64_out(mc_conn *c, const char *s, size_t n) {
  char buf[MC_KEY_MAX_B64 + 4];
  size_t o = 0;
  for (size_t i = 0; i < n; i += 3) {
    uint32_t w = (uint32_t)(unsigned char)s[i] << 16;
    if (i + 1 < n)
      w |= (uint32_t)(unsigned char)s[i + 1] << 8;
    if (i + 2 < n)
      w |= (unsigned char)s[i + 2];
    buf[o++] = b64[w >> 18 & 63];
    buf[o++] = b64[w >> 12 & 63];
    buf[o++] = i + 1 < n ? b64[w >> 6 & 63] : '=';
    buf[o++] = i + 2 < n ? b64[w & 63] : '=';
  }
  mc_out(c, buf, o);
}

/* A meta request's key and flags. */
typedef struct meta_req {
  const char *key; /* decoded with b */
  size_t nkey;
  char keybuf[MC_KEY_MAX + 1];
  int binary; /* b */
  int quiet;  /* q */
  mc_token *flags;
  int nflags;
  mc_token *opaque; /* O */
} meta_req;

static const char bad_format[] = "CLIENT_ERROR bad command line format\r\n";

/* The flags memcached 1.6.45 knows; every meta command accepts them all
 * and ignores those it has no use for. */
static const char known_flags[] = "bNTRlOPLkstcfvhuqxFCEMJDI";

/* Parses TOK[1] (key) and the flags from TOK[FIRST], each a letter of
 * known_flags at most once; an error reply, or NULL. */
static const char *parse_req(meta_req *m, mc_token *tok, int ntok, int first) {
  memset(m, 0, sizeof *m);
  if (ntok < 2 || tok[1].n == 0)
    return bad_format;
  m->flags = &tok[first];
  m->nflags = ntok - first;
  unsigned char seen[128] = {0};
  for (int i = 0; i < m->nflags; i++) {
    unsigned char f = (unsigned char)m->flags[i].s[0];
    if (f < 128 && seen[f]++)
      return "CLIENT_ERROR duplicate flag\r\n";
    if (f == 0 || !strchr(known_flags, f))
      return "CLIENT_ERROR invalid flag\r\n";
    if (f == 'b')
      m->binary = 1;
    else if (f == 'q')
      m->quiet = 1;
    else if (f == 'O') {
      if (m->flags[i].n - 1 > META_MAX_OPAQUE)
        return "CLIENT_ERROR opaque token too long\r\n";
      m->opaque = &m->flags[i];
    }
  }
  if (m->binary) {
    int n = b64_decode(tok[1].s, tok[1].n, m->keybuf, MC_KEY_MAX);
    if (n <= 0)
      return "CLIENT_ERROR error decoding key\r\n";
    m->key = m->keybuf;
    m->nkey = (size_t)n;
  } else {
    if (tok[1].n > MC_KEY_MAX)
      return bad_format;
    m->key = tok[1].s;
    m->nkey = tok[1].n;
  }
  return NULL;
}

/* The number after a flag letter. */
static int flag_num(const mc_token *t, int64_t lo, int64_t hi, int64_t *out) {
  if (t->n < 2 || t->n > 21)
    return 0;
  char buf[24], *end;
  memcpy(buf, t->s + 1, t->n - 1);
  buf[t->n - 1] = '\0';
  if (buf[0] == '-' && lo >= 0)
    return 0;
  long long v = strtoll(buf, &end, 10);
  if (*end || v < lo || v > hi)
    return 0;
  *out = v;
  return 1;
}

static int flag_u64(const mc_token *t, uint64_t *out) {
  mc_token rest = {t->s + 1, t->n - 1};
  return t->n >= 2 && mc_tok_u64(&rest, out);
}

/* E: the cas a changed item gets (cas values are > 0: E0 is refused). */
static int flag_ecas(const mc_token *t, uint64_t *out) {
  return flag_u64(t, out) && *out != 0;
}

static void out_key(mc_conn *c, const meta_req *m) {
  mc_out_str(c, " k");
  if (m->binary)
    mc_meta_b64_out(c, m->key, m->nkey);
  else
    mc_out(c, m->key, m->nkey);
  if (m->binary)
    mc_out_str(c, " b");
}

static void out_opaque(mc_conn *c, const meta_req *m) {
  mc_out_str(c, " ");
  mc_out(c, m->opaque->s, m->opaque->n);
}

/* The return flags every command shares (O, k), in request order. */
static void out_common(mc_conn *c, const meta_req *m, int with_cas,
                       uint64_t cas) {
  for (int i = 0; i < m->nflags; i++) {
    char f = m->flags[i].s[0];
    if (f == 'O')
      out_opaque(c, m);
    else if (f == 'k')
      out_key(c, m);
    else if (f == 'c' && with_cas)
      mc_outf(c, " c%" PRIu64, cas);
  }
}

/* ---- mg ------------------------------------------------------------------ */

static void cmd_mg(mc_conn *c, mc_token *tok, int ntok) {
  meta_req m;
  const char *err = parse_req(&m, tok, ntok, 2);
  if (err) {
    mc_out_str(c, err);
    return;
  }
  mc_meta_get_opts o = {0};
  int have_cas = 0;
  uint64_t cas_in = 0;
  for (int i = 0; i < m.nflags; i++) {
    const mc_token *t = &m.flags[i];
    int64_t v = 0;
    switch (t->s[0]) {
    case 'C': /* the client holds this version: no value if it is current */
      if (!(have_cas = flag_u64(t, &cas_in))) {
        mc_out_str(c, "CLIENT_ERROR bad token in command line format\r\n");
        return;
      }
      break;
    case 'T':
    case 'N':
    case 'R':
      if (!flag_num(t, INT32_MIN, INT32_MAX, &v)) {
        mc_out_str(c, "CLIENT_ERROR bad token in command line format\r\n");
        return;
      }
      if (t->s[0] == 'T')
        o.touch = 1, o.touch_exptime = mc_expiry(v);
      else if (t->s[0] == 'N')
        o.vivify = 1, o.vivify_exptime = mc_expiry(v);
      else
        o.recache = 1, o.recache_exptime = mc_now() + v;
      break;
    case 'E': /* the cas of an item N creates */
      if (!flag_ecas(t, &o.vivify_cas)) {
        mc_out_str(c, "CLIENT_ERROR bad token in command line format\r\n");
        return;
      }
      break;
    case 'u':
      o.no_bump = 1;
      break;
    case 'v':
      o.want_value = 1;
      break;
    default:
      break;
    }
  }
  if (!o.vivify)
    o.vivify_cas = 0;
  mc_meta_item r;
  mc_meta_get(m.key, m.nkey, &o, c->scratch, &r);
  if (mc_watching(MC_WATCH_FETCHERS))
    mc_watch_fetch(c->fd, m.key, m.nkey,
                   r.found ? MC_PRIOR(MC_PRIOR_FOUND, r.nbytes)
                           : MC_PRIOR_ABSENT);
  MC_COUNT(cmd_get, 1);
  if (o.touch)
    MC_COUNT(cmd_touch, 1);
  if (!r.found) {
    MC_COUNT(get_misses, 1);
    if (!m.quiet)
      mc_out_str(c, "EN\r\n");
    return;
  }
  MC_COUNT(get_hits, 1);
  if (have_cas && r.cas == cas_in)
    o.want_value = 0;
  if (o.want_value)
    mc_outf(c, "VA %" PRIu64, r.nbytes);
  else
    mc_out_str(c, "HD");
  int64_t now = mc_now();
  for (int i = 0; i < m.nflags; i++) {
    switch (m.flags[i].s[0]) {
    case 's':
      mc_outf(c, " s%" PRIu64, r.nbytes);
      break;
    case 't':
      mc_outf(c, " t%lld",
              r.exptime == 0 ? -1LL : (long long)(r.exptime - now));
      break;
    case 'c':
      mc_outf(c, " c%" PRIu64, r.cas);
      break;
    case 'f':
      mc_outf(c, " f%" PRIu32, r.flags);
      break;
    case 'l':
      mc_outf(c, " l%lld", (long long)(now - r.last_access));
      break;
    case 'h':
      mc_outf(c, " h%d", (r.state & MC_ITEM_FETCHED) != 0);
      break;
    case 'O':
      out_opaque(c, &m);
      break;
    case 'k':
      out_key(c, &m);
      break;
    default:
      break;
    }
  }
  if (r.state & MC_ITEM_TOKEN_SENT)
    mc_out_str(c, " Z");
  if (r.state & MC_ITEM_STALE)
    mc_out_str(c, " X");
  if (r.won)
    mc_out_str(c, " W");
  mc_out_str(c, "\r\n");
  if (o.want_value) {
    mc_out(c, c->scratch, r.nbytes);
    mc_out_str(c, "\r\n");
  }
}

/* ---- ms ------------------------------------------------------------------ */

/* The value length an ms left: LEN, or after an append or prepend the
 * item's whole length (read back). */
static uint64_t stored_size(const meta_req *m, mc_store_op op, uint64_t len) {
  if (op != MC_APPEND && op != MC_PREPEND)
    return len;
  mc_meta_get_opts o = {.no_bump = 1};
  mc_meta_item it;
  mc_meta_get(m->key, m->nkey, &o, NULL, &it);
  return it.found ? it.nbytes : len;
}

/* ms's return flags, in request order: O, k, c (c0 when nothing was
 * stored), s (the value length it left). */
static void out_ms_flags(mc_conn *c, const meta_req *m, uint64_t cas,
                         uint64_t size) {
  for (int i = 0; i < m->nflags; i++) {
    char f = m->flags[i].s[0];
    if (f == 'O')
      out_opaque(c, m);
    else if (f == 'k')
      out_key(c, m);
    else if (f == 'c')
      mc_outf(c, " c%" PRIu64, cas);
    else if (f == 's')
      mc_outf(c, " s%" PRIu64, size);
  }
}

/* ms KEY DATALEN FLAGS*: returns the input used after the line, or -1 when
 * the data is not all there yet. */
static int64_t cmd_ms(mc_conn *c, mc_token *tok, int ntok, const char *value,
                      size_t avail) {
  meta_req m;
  uint64_t len;
  if (ntok < 3 || !mc_tok_u64(&tok[2], &len) || len > INT32_MAX) {
    mc_out_str(c, bad_format);
    return 0;
  }
  const char *err = parse_req(&m, tok, ntok, 3);
  if (err) {
    mc_out_str(c, err);
    return 0;
  }
  int64_t need = (int64_t)len + 2;
  mc_store_op op = MC_SET;
  uint32_t flags = 0;
  int64_t exptime = 0, vivify_exptime = 0;
  int have_cas = 0, invalidate = 0, vivify = 0;
  uint64_t cas_in = 0, ecas = 0;
  for (int i = 0; i < m.nflags; i++) {
    const mc_token *t = &m.flags[i];
    int64_t v;
    int ok = 1;
    switch (t->s[0]) {
    case 'T':
      ok = flag_num(t, INT32_MIN, INT32_MAX, &v);
      exptime = ok ? mc_expiry(v) : 0;
      break;
    case 'F':
      ok = flag_num(t, 0, UINT32_MAX, &v);
      flags = (uint32_t)v;
      break;
    case 'C':
      ok = flag_u64(t, &cas_in);
      have_cas = 1;
      break;
    case 'E':
      ok = flag_ecas(t, &ecas);
      break;
    case 'I':
      invalidate = 1;
      break;
    case 'N': /* append/prepend: create a missing item with this TTL */
      ok = flag_num(t, INT32_MIN, INT32_MAX, &v);
      vivify = 1;
      vivify_exptime = ok ? mc_expiry(v) : 0;
      break;
    case 'M':
      if (t->n != 2) {
        ok = 0;
        break;
      }
      switch (t->s[1]) {
      case 'E':
      case 'e':
        op = MC_ADD;
        break;
      case 'A':
      case 'a':
        op = MC_APPEND;
        break;
      case 'P':
      case 'p':
        op = MC_PREPEND;
        break;
      case 'R':
      case 'r':
        op = MC_REPLACE;
        break;
      case 'S':
      case 's':
        op = MC_SET;
        break;
      default:
        c->swallow = (uint64_t)need;
        mc_out_str(c, "CLIENT_ERROR invalid mode for ms STORE\r\n");
        return 0;
      }
      break;
    default:
      break;
    }
    if (!ok) {
      c->swallow = (uint64_t)need;
      mc_out_str(c, "CLIENT_ERROR bad token in command line format\r\n");
      return 0;
    }
  }
  MC_COUNT(cmd_set, 1);
  if (!mc_item_size_ok(m.nkey, len)) {
    MC_COUNT(store_too_large, 1);
    mc_out_str(c, "SERVER_ERROR object too large for cache\r\n");
    if (op == MC_SET)
      mc_delete(m.key, m.nkey);
    c->swallow = (uint64_t)need;
    return 0;
  }
  if (avail < (uint64_t)need)
    return -1;
  if (value[need - 2] != '\r' || value[need - 1] != '\n') {
    mc_out_str(c, "CLIENT_ERROR bad data chunk\r\n");
    return need;
  }
  uint64_t cas_out = 0;
  uint32_t prior;
  mc_result r =
      mc_meta_set(m.key, m.nkey, op, flags, exptime, value, (size_t)len,
                  have_cas, cas_in, invalidate, ecas, &cas_out, &prior);
  if (r == MC_NOT_STORED && vivify && (op == MC_APPEND || op == MC_PREPEND) &&
      MC_PRIOR_STATUS(prior) != MC_PRIOR_FOUND)
    /* N: the missing item is created with the data (a concurrent store
     * in between makes this add fail: NS, as if it had come first) */
    r = mc_meta_set(m.key, m.nkey, MC_ADD, flags, vivify_exptime, value,
                    (size_t)len, 0, 0, invalidate, ecas, &cas_out, &prior);
  if (mc_watching(MC_WATCH_FETCHERS | MC_WATCH_MUTATIONS))
    mc_watch_store(c->fd, m.key, m.nkey, have_cas && op == MC_SET ? MC_CAS : op,
                   r, exptime, (uint64_t)len, prior);
  const char *code;
  switch (r) {
  case MC_OK:
    code = "HD";
    break;
  case MC_NOT_STORED:
    code = "NS";
    break;
  case MC_EXISTS:
    code = "EX";
    break;
  case MC_NOT_FOUND:
    code = "NF";
    break;
  case MC_TOO_LARGE:
    mc_out_str(c, "SERVER_ERROR object too large for cache\r\n");
    return need;
  default:
    mc_out_str(c, "SERVER_ERROR out of memory storing object\r\n");
    return need;
  }
  if (r == MC_OK && m.quiet)
    return need;
  mc_out_str(c, code);
  out_ms_flags(c, &m, cas_out, r == MC_OK ? stored_size(&m, op, len) : 0);
  mc_out_str(c, "\r\n");
  return need;
}

/* ---- md, ma, me ------------------------------------------------------------
 */

static void cmd_md(mc_conn *c, mc_token *tok, int ntok) {
  meta_req m;
  const char *err = parse_req(&m, tok, ntok, 2);
  if (err) {
    mc_out_str(c, err);
    return;
  }
  int have_cas = 0, invalidate = 0, touch = 0, remove_value = 0;
  uint64_t cas_in = 0, ecas = 0;
  int64_t exptime = 0, flags = 0;
  for (int i = 0; i < m.nflags; i++) {
    const mc_token *t = &m.flags[i];
    int64_t v;
    if ((t->s[0] == 'C' && !(have_cas = flag_u64(t, &cas_in))) ||
        (t->s[0] == 'E' && !flag_ecas(t, &ecas)) ||
        (t->s[0] == 'F' && !flag_num(t, 0, UINT32_MAX, &flags))) {
      mc_out_str(c, "CLIENT_ERROR bad token in command line format\r\n");
      return;
    } else if (t->s[0] == 'T') {
      if (!flag_num(t, INT32_MIN, INT32_MAX, &v)) {
        mc_out_str(c, "CLIENT_ERROR bad token in command line format\r\n");
        return;
      }
      touch = 1;
      exptime = mc_expiry(v);
    } else if (t->s[0] == 'I') {
      invalidate = 1;
    } else if (t->s[0] == 'x') {
      remove_value = 1;
    }
  }
  uint64_t removed;
  mc_result r =
      mc_meta_delete(m.key, m.nkey, have_cas, cas_in, invalidate, touch,
                     exptime, remove_value, (uint32_t)flags, ecas, &removed);
  if (r == MC_OK && !invalidate)
    mc_watch_deletion(m.key, m.nkey, 1, removed);
  if (r == MC_OK)
    MC_COUNT(delete_hits, 1);
  else
    MC_COUNT(delete_misses, 1);
  if (m.quiet && (r == MC_OK || r == MC_NOT_FOUND))
    return;
  if (r == MC_NO_MEMORY) { /* x, or I with E: no room for the new item */
    mc_out_str(c, "SERVER_ERROR out of memory\r\n");
    return;
  }
  mc_out_str(c, r == MC_OK ? "HD" : r == MC_EXISTS ? "EX" : "NF");
  out_common(c, &m, 0, 0);
  mc_out_str(c, "\r\n");
}

static void cmd_ma(mc_conn *c, mc_token *tok, int ntok) {
  meta_req m;
  const char *err = parse_req(&m, tok, ntok, 2);
  if (err) {
    mc_out_str(c, err);
    return;
  }
  int incr = 1, create = 0, have_cas = 0, touch = 0, want_value = 0;
  uint64_t delta = 1, initial = 0, cas_in = 0, ecas = 0;
  int64_t create_exptime = 0, touch_exptime = 0;
  for (int i = 0; i < m.nflags; i++) {
    const mc_token *t = &m.flags[i];
    int64_t v = 0;
    int ok = 1;
    switch (t->s[0]) {
    case 'N':
      ok = flag_num(t, INT32_MIN, INT32_MAX, &v);
      create = 1;
      create_exptime = mc_expiry(v);
      break;
    case 'T':
      ok = flag_num(t, INT32_MIN, INT32_MAX, &v);
      touch = 1;
      touch_exptime = mc_expiry(v);
      break;
    case 'J':
      ok = flag_u64(t, &initial);
      break;
    case 'D':
      ok = flag_u64(t, &delta);
      break;
    case 'C':
      ok = have_cas = flag_u64(t, &cas_in);
      break;
    case 'E':
      ok = flag_ecas(t, &ecas);
      break;
    case 'M':
      ok = t->n == 2 && strchr("IiDd+-", t->s[1]);
      incr = ok && strchr("Ii+", t->s[1]) != NULL;
      break;
    case 'v':
      want_value = 1;
      break;
    default:
      break;
    }
    if (!ok) {
      mc_out_str(c, "CLIENT_ERROR bad token in command line format\r\n");
      return;
    }
  }
  uint64_t value = 0, cas = 0;
  mc_result r =
      mc_meta_arith(m.key, m.nkey, incr, delta, create, initial, create_exptime,
                    have_cas, cas_in, touch, touch_exptime, ecas, &value, &cas);
  if (r == MC_NON_NUMERIC) {
    mc_out_str(c, "CLIENT_ERROR cannot increment or decrement non-numeric "
                  "value\r\n");
    return;
  }
  if (r == MC_OK)
    MC_COUNT(incr_hits, incr), MC_COUNT(decr_hits, !incr);
  else if (r == MC_NOT_FOUND)
    MC_COUNT(incr_misses, incr), MC_COUNT(decr_misses, !incr);
  if (r != MC_OK) {
    if (m.quiet && r == MC_NOT_FOUND)
      return;
    mc_out_str(c, r == MC_NOT_FOUND ? "NF" : r == MC_EXISTS ? "EX" : "NS");
    out_common(c, &m, 0, 0);
    mc_out_str(c, "\r\n");
    return;
  }
  if (m.quiet && !want_value)
    return;
  char digits[24];
  int nd = snprintf(digits, sizeof digits, "%" PRIu64, value);
  if (want_value)
    mc_outf(c, "VA %d", nd);
  else
    mc_out_str(c, "HD");
  for (int i = 0; i < m.nflags; i++) {
    char f = m.flags[i].s[0];
    if (f == 't') {
      /* the TTL as this request left it */
      mc_meta_get_opts o = {.no_bump = 1};
      mc_meta_item it;
      mc_meta_get(m.key, m.nkey, &o, NULL, &it);
      mc_outf(c, " t%lld",
              !it.found || it.exptime == 0
                  ? -1LL
                  : (long long)(it.exptime - mc_now()));
    } else if (f == 'c') {
      mc_outf(c, " c%" PRIu64, cas);
    } else if (f == 'O') {
      out_opaque(c, &m);
    } else if (f == 'k') {
      out_key(c, &m);
    }
  }
  mc_out_str(c, "\r\n");
  if (want_value) {
    mc_out(c, digits, (size_t)nd);
    mc_out_str(c, "\r\n");
  }
}

/* me KEY: memcached's debug line for one item. */
static void cmd_me(mc_conn *c, mc_token *tok, int ntok) {
  meta_req m;
  const char *err = parse_req(&m, tok, ntok, 2);
  if (err) {
    mc_out_str(c, err);
    return;
  }
  mc_meta_get_opts o = {.no_bump = 1};
  mc_meta_item r;
  mc_meta_get(m.key, m.nkey, &o, NULL, &r);
  if (!r.found) {
    mc_out_str(c, "EN\r\n");
    return;
  }
  int64_t now = mc_now();
  mc_out_str(c, "ME ");
  mc_out(c, tok[1].s, tok[1].n);
  mc_outf(c,
          " exp=%lld la=%lld cas=%" PRIu64 " fetch=%s cls=1 size=%" PRIu64
          "\r\n",
          r.exptime == 0 ? -1LL : (long long)(r.exptime - now),
          (long long)(now - r.last_access), r.cas,
          (r.state & MC_ITEM_FETCHED) ? "yes" : "no", r.nbytes + m.nkey);
}

int64_t mc_meta_command(mc_conn *c, mc_token *tok, int ntok, const char *value,
                        size_t avail) {
  MC_COUNT(cmd_meta, 1);
  switch (tok[0].s[1]) {
  case 'g':
    cmd_mg(c, tok, ntok);
    return 0;
  case 's':
    return cmd_ms(c, tok, ntok, value, avail);
  case 'd':
    cmd_md(c, tok, ntok);
    return 0;
  case 'a':
    cmd_ma(c, tok, ntok);
    return 0;
  case 'e':
    cmd_me(c, tok, ntok);
    return 0;
  default: /* mn */
    mc_out_str(c, "MN\r\n");
    return 0;
  }
}
