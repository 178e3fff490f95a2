/* types.h - the basic types of the STAMP support library. */
#ifndef STAMP_TYPES_H
#define STAMP_TYPES_H

typedef int bool_t;
#define TRUE 1
#define FALSE 0

typedef unsigned long ulong_t;

/* Comparator of two elements: negative, zero or positive like strcmp. */
typedef long (*stamp_cmp_t)(const void *, const void *);

#endif /* STAMP_TYPES_H */
