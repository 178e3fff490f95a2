/* pair.h - two pointers (STAMP's pair_t). */
#ifndef STAMP_PAIR_H
#define STAMP_PAIR_H

typedef struct pair {
  void *first;
  void *second;
} pair_t;

pair_t *pair_alloc(void *first, void *second);
void pair_free(pair_t *p);
void pair_swap(pair_t *p);

#endif /* STAMP_PAIR_H */
