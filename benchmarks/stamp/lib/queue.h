/*
 * queue.h - a FIFO of pointers in a growing circular array (STAMP's
 * queue_t). The array comes from TM_MALLOC: a queue may be shared and
 * pushed/popped inside transactions (growth included).
 */
#ifndef STAMP_QUEUE_H
#define STAMP_QUEUE_H

#include "random.h"
#include "types.h"

typedef struct queue {
  long pop;      /* index of the first element */
  long size;     /* number of elements */
  long capacity; /* slots of elements[] */
  void **elements;
} queue_t;

queue_t *queue_alloc(long initCapacity);
void queue_free(queue_t *q);
bool_t queue_isEmpty(queue_t *q);
long queue_getSize(queue_t *q);
void queue_clear(queue_t *q);
bool_t queue_push(queue_t *q, void *data); /* FALSE: out of memory */
void *queue_pop(queue_t *q);               /* NULL if empty */
/* Random permutation of the elements (outside transactions). */
void queue_shuffle(queue_t *q, random_t *r);

#endif /* STAMP_QUEUE_H */
