/* mc_options.h - ptm-memcached's command line (mc_options.c). */
#ifndef MC_OPTIONS_H
#define MC_OPTIONS_H

#include "mc_stats.h"

/* Fills S from the arguments; prints a message and exits 64 on a bad one. */
void mc_parse_options(int argc, char **argv, mc_settings *s);

/* A durability mode as PTM_DURABILITY takes it: 0 for "strict", MS for
 * "buffered:MS" (1..60000; "buffered" is 10), -1 if malformed. */
int mc_parse_durability(const char *text);

/* 1 if TEXT is a pool file mode as PTM_POOL_MODE takes it (octal, at most
 * 0777, with the owner's read and write bits), else 0. */
int mc_pool_mode_ok(const char *text);

#endif /* MC_OPTIONS_H */
