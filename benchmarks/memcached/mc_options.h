/* mc_options.h - ptm-memcached's command line (mc_options.c). */
#ifndef MC_OPTIONS_H
#define MC_OPTIONS_H

#include "mc_stats.h"

/* Fills S from the arguments; prints a message and exits 64 on a bad one. */
void mc_parse_options(int argc, char **argv, mc_settings *s);

/* A durability mode as PTM_DURABILITY takes it: 0 for "strict", MS for
 * "buffered:MS" (1..60000; "buffered" is 10), -1 if malformed. */
int mc_parse_durability(const char *text);

#endif /* MC_OPTIONS_H */
