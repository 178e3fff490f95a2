#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

long stamp_option_long(const char *program, int opt, const char *text, long min,
                       long max, void (*usage)(void)) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || end == text || *end || v < min || v > max) {
    fprintf(stderr, "%s: bad value '%s' for -%c (integer in [%ld, %ld])\n",
            program, text, opt, min, max);
    usage();
  }
  return v;
}

double stamp_option_double(const char *program, int opt, const char *text,
                           double min, double max, void (*usage)(void)) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (errno || end == text || *end || !(v >= min) || v > max) {
    fprintf(stderr, "%s: bad value '%s' for -%c (number in [%g, %g])\n",
            program, text, opt, min, max);
    usage();
  }
  return v;
}
