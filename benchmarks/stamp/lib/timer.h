/* timer.h - wall-clock timing as STAMP's TIMER_T macros. */
#ifndef STAMP_TIMER_H
#define STAMP_TIMER_H

#include <time.h>

typedef struct timespec TIMER_T;

#define TIMER_READ(t) clock_gettime(CLOCK_MONOTONIC, &(t))
#define TIMER_DIFF_SECONDS(start, stop)                                        \
  ((double)((stop).tv_sec - (start).tv_sec) +                                  \
   (double)((stop).tv_nsec - (start).tv_nsec) / 1e9)

#endif /* STAMP_TIMER_H */
