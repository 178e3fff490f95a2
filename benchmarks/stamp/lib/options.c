/* The STAMP applications' command lines: see options.h. */
#include "options.h"

#include <stdio.h>
#include <unistd.h>

#include "parse_number.h"

long stamp_option_long(const char *program, int opt, const char *text, long min,
                       long max, void (*usage)(void)) {
  long v = 0;
  if (!parse_long_in(text, min, max, &v)) {
    fprintf(stderr, "%s: bad value '%s' for -%c (integer in [%ld, %ld])\n",
            program, text, opt, min, max);
    usage();
  }
  return v;
}

double stamp_option_double(const char *program, int opt, const char *text,
                           double min, double max, void (*usage)(void)) {
  double v = 0;
  if (!parse_double_in(text, min, max, &v)) {
    fprintf(stderr, "%s: bad value '%s' for -%c (number in [%g, %g])\n",
            program, text, opt, min, max);
    usage();
  }
  return v;
}

static void set(const char *program, const stamp_option_t *o, const char *arg,
                void (*usage)(void)) {
  switch (o->kind) {
  case STAMP_OPT_LONG:
    *(long *)o->value = stamp_option_long(program, o->letter, arg, (long)o->min,
                                          (long)o->max, usage);
    break;
  case STAMP_OPT_ULONG:
    *(unsigned long *)o->value = (unsigned long)stamp_option_long(
        program, o->letter, arg, (long)o->min, (long)o->max, usage);
    break;
  case STAMP_OPT_DOUBLE:
    *(double *)o->value =
        stamp_option_double(program, o->letter, arg, o->min, o->max, usage);
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
