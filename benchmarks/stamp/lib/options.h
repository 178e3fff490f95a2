/* Command-line values of the STAMP applications: the text of option -OPT as
 * a number in [MIN, MAX], or a message naming the program, the option and the
 * range on stderr followed by USAGE() (which exits). */
#ifndef STAMP_OPTIONS_H
#define STAMP_OPTIONS_H

long stamp_option_long(const char *program, int opt, const char *text, long min,
                       long max, void (*usage)(void));
double stamp_option_double(const char *program, int opt, const char *text,
                           double min, double max, void (*usage)(void));

#endif
