/*
 * options.h - the command lines of the STAMP applications: an application
 * lists its options in a table and stamp_parse_options() reads argv into
 * the variables, checking every value; -h, an unknown option, a missing or
 * bad value and an extra argument print a message naming the program (and
 * the option and its range) on stderr, then call USAGE(), which exits.
 */
#ifndef STAMP_OPTIONS_H
#define STAMP_OPTIONS_H

typedef enum stamp_opt_kind {
  STAMP_OPT_LONG,   /* long *: an integer in [min, max] */
  STAMP_OPT_ULONG,  /* unsigned long *: an integer in [min, max] */
  STAMP_OPT_DOUBLE, /* double *: a number in [min, max] */
  STAMP_OPT_STRING, /* const char **: the text */
  STAMP_OPT_FLAG    /* int *: set to 1, no value */
} stamp_opt_kind_t;

typedef struct stamp_option {
  char letter;
  stamp_opt_kind_t kind;
  void *value;
  double min, max; /* the numbers' range (exact for integers up to 2^53) */
} stamp_option_t;

/* Reads ARGV by OPTS, a table ended by an entry whose letter is 0. */
void stamp_parse_options(int argc, char **argv, const char *program,
                         const stamp_option_t *opts, void (*usage)(void));

#endif
