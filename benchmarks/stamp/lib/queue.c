/* The FIFO: see queue.h. */
#include "queue.h"

#include "tm.h"

queue_t *queue_alloc(long initCapacity) {
  queue_t *q = TM_MALLOC(sizeof *q);
  if (!q)
    return NULL;
  q->capacity = initCapacity > 1 ? initCapacity : 2;
  q->elements = TM_MALLOC((size_t)q->capacity * sizeof(void *));
  if (!q->elements) {
    TM_FREE(q);
    return NULL;
  }
  q->pop = 0;
  q->size = 0;
  return q;
}

void queue_free(queue_t *q) {
  TM_FREE(q->elements);
  TM_FREE(q);
}

bool_t queue_isEmpty(queue_t *q) { return q->size == 0; }
long queue_getSize(queue_t *q) { return q->size; }

void queue_clear(queue_t *q) {
  q->pop = 0;
  q->size = 0;
}

bool_t queue_push(queue_t *q, void *data) {
  if (q->size == q->capacity) {
    long capacity = q->capacity * 2;
    void **elements = TM_MALLOC((size_t)capacity * sizeof(void *));
    if (!elements)
      return FALSE;
    for (long i = 0; i < q->size; i++)
      elements[i] = q->elements[(q->pop + i) % q->capacity];
    TM_FREE(q->elements);
    q->elements = elements;
    q->capacity = capacity;
    q->pop = 0;
  }
  q->elements[(q->pop + q->size) % q->capacity] = data;
  q->size++;
  return TRUE;
}

void *queue_pop(queue_t *q) {
  if (q->size == 0)
    return NULL;
  void *data = q->elements[q->pop];
  q->pop = (q->pop + 1) % q->capacity;
  q->size--;
  return data;
}

void queue_shuffle(queue_t *q, random_t *r) {
  for (long i = q->size - 1; i > 0; i--) {
    long j = random_below(r, i + 1);
    long a = (q->pop + i) % q->capacity, b = (q->pop + j) % q->capacity;
    void *t = q->elements[a];
    q->elements[a] = q->elements[b];
    q->elements[b] = t;
  }
}
