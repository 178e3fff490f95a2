/* Flow reassembly: see decoder.h. */
#include "decoder.h"

#include "list.h"
#include "tm.h"

decoder_t *decoder_alloc(void) {
  decoder_t *d = TM_MALLOC(sizeof *d);
  if (!d)
    return NULL;
  d->fragmentedMap = MAP_ALLOC(NULL, NULL);
  d->decodedQueue = queue_alloc(1024);
  if (!d->fragmentedMap || !d->decodedQueue)
    return NULL;
  return d;
}

/* Pushes the flow made of the packets P[0..n) (in order) as decoded. */
static decoder_error_t emit(decoder_t *d, long flowId, packet_t **p, long n,
                            list_t *list) {
  long length = 0;
  list_iter_t it;
  if (list) {
    list_iter_reset(&it, list);
    while (list_iter_hasNext(&it))
      length += ((packet_t *)list_iter_next(&it))->length;
  } else {
    length = p[0]->length;
  }
  decoded_t *out = TM_MALLOC(sizeof *out);
  char *data = TM_MALLOC((size_t)length + 1);
  if (!out || !data)
    return DECODER_NO_MEMORY;
  long at = 0, expected = 0;
  if (list) {
    list_iter_reset(&it, list);
    while (list_iter_hasNext(&it)) {
      packet_t *f = list_iter_next(&it);
      if (f->fragmentId != expected++)
        return DECODER_BAD_FRAGMENT;
      for (long i = 0; i < f->length; i++)
        data[at++] = f->data[i];
    }
  } else {
    (void)n;
    for (long i = 0; i < length; i++)
      data[at++] = p[0]->data[i];
  }
  data[at] = '\0';
  out->flowId = flowId;
  out->data = data;
  return queue_push(d->decodedQueue, out) ? DECODER_OK : DECODER_NO_MEMORY;
}

decoder_error_t decoder_process(decoder_t *d, packet_t *p) {
  if (p->numFragment < 1 || p->fragmentId < 0 ||
      p->fragmentId >= p->numFragment || p->length < 0)
    return DECODER_BAD_FRAGMENT;
  if (p->numFragment == 1)
    return emit(d, p->flowId, &p, 1, NULL);
  list_t *list = MAP_FIND(d->fragmentedMap, p->flowId);
  if (!list) {
    list = list_alloc(packet_compareFragmentId);
    if (!list)
      return DECODER_NO_MEMORY;
    if (!MAP_INSERT(d->fragmentedMap, p->flowId, list))
      return DECODER_NO_MEMORY;
  } else {
    packet_t *first = list->head.next->data;
    if (first->numFragment != p->numFragment)
      return DECODER_BAD_FRAGMENT;
  }
  if (!list_insert(list, p))
    return DECODER_BAD_FRAGMENT; /* the same fragment twice */
  if (list_getSize(list) < p->numFragment)
    return DECODER_OK;
  decoder_error_t e = emit(d, p->flowId, NULL, p->numFragment, list);
  MAP_REMOVE(d->fragmentedMap, p->flowId);
  list_free(list);
  return e;
}

decoded_t *decoder_getComplete(decoder_t *d) {
  return queue_pop(d->decodedQueue);
}
