/* The STAMP applications' command lines: see options.h. */
#include "options.h"

#include <stdio.h>
#include <unistd.h>

#include "parse_number.h"

/* Option O's value ARG into its variable (USAGE() when it is bad). */
static void set(const char *program, const stamp_option_t *o, const char *arg,
                void (*usage)(void)) {
  char name[3] = {'-', o->letter, 0};
  long l = 0;
  double d = 0;
  switch (o->kind) {
  case STAMP_OPT_LONG:
  case STAMP_OPT_ULONG:
    if (!parse_long_opt(program, name, arg, (long)o->min, (long)o->max, &l))
      usage();
    if (o->kind == STAMP_OPT_LONG)
      *(long *)o->value = l;
    else
      *(unsigned long *)o->value = (unsigned long)l;
    break;
  case STAMP_OPT_DOUBLE:
    if (!parse_double_opt(program, name, arg, o->min, o->max, &d))
      usage();
    *(double *)o->value = d;
    break;
  case STAMP_OPT_STRING:
    *(const char **)o->value = arg;
    break;
  case STAMP_OPT_FLAG:
    *(int *)o->value = 1;
    break;
  }
}

void stamp_parse_options(int argc, char **argv, const char *program,
                         const stamp_option_t *opts, void (*usage)(void)) {
  char optstring[128] = ":h";
  size_t n = 2;
  for (const stamp_option_t *o = opts; o->letter && n + 3 < sizeof optstring;
       o++) {
    optstring[n++] = o->letter;
    if (o->kind != STAMP_OPT_FLAG)
      optstring[n++] = ':';
  }
  optstring[n] = 0;
  int c;
  opterr = 0;
  while ((c = getopt(argc, argv, optstring)) != -1) {
    const stamp_option_t *o = opts;
    while (o->letter && o->letter != c)
      o++;
    if (o->letter) {
      set(program, o, optarg, usage);
      continue;
    }
    if (c == ':')
      fprintf(stderr, "%s: option -%c needs a value\n", program, optopt);
    else if (c == '?')
      fprintf(stderr, "%s: unknown option -%c\n", program, optopt);
    usage(); /* -h */
  }
  if (optind < argc) {
    fprintf(stderr, "%s: unexpected argument '%s'\n", program, argv[optind]);
    usage();
  }
}
