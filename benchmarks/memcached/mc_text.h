/* mc_text.h - the text protocol's tokens, shared by mc_text.c (the
 * cache's commands) and mc_admin.c (stats groups, crawler, dumps). */
#ifndef MC_TEXT_H
#define MC_TEXT_H

#include "mc_conn.h"

#include <stddef.h>
#include <stdint.h>

typedef struct mc_token {
  char *s;
  size_t n;
} mc_token;

/* 1 if T is exactly NAME. */
int mc_tok_is(const mc_token *t, const char *name);
/* The whole token as a decimal number; 1, or 0 if it is not one. */
int mc_tok_u64(const mc_token *t, uint64_t *out);
/* The whole token as a signed 32-bit decimal (digits, an optional leading
 * '-'); 1, or 0 if it is not one. */
int mc_tok_i32(const mc_token *t, int32_t *out);

/* Administrative commands (mc_admin.c): 1 if TOK[0] is one of them (it has
 * been answered), else 0. */
int mc_admin_command(mc_conn *c, mc_token *tok, int ntok);
/* stats detail on|off|dump, stats cachedump CLASS LIMIT (mc_admin.c): 1 if
 * handled. */
int mc_admin_stats(mc_conn *c, mc_token *tok, int ntok);

/* The meta commands mg ms md ma mn me (mc_meta.c), TOK[0] one of them:
 * returns the input used after the line (ms's data), or -1 when it is not
 * all there yet. */
int64_t mc_meta_command(mc_conn *c, mc_token *tok, int ntok, const char *value,
                        size_t avail);

/* Appends N bytes of S in base64 (mc_meta.c: binary keys). */
void mc_meta_b64_out(mc_conn *c, const char *s, size_t n);

/* stats detail's per-prefix counters (mc_admin.c); no-ops while off. */
void mc_prefix_record(const char *key, size_t nkey, int what, int hit);
enum { MC_PREFIX_GET, MC_PREFIX_SET, MC_PREFIX_DELETE };
void mc_prefix_clear(void);
/* PREFIX lines, then END (stats detail dump). */
void mc_prefix_dump(mc_conn *c);

#endif /* MC_TEXT_H */
