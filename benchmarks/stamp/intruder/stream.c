/* intruder's packet stream: see stream.h. */
#include "stream.h"

#include <string.h>

#include "detector.h"
#include "random.h"
#include "tm.h"

long packet_compareFragmentId(const void *a, const void *b) {
  const packet_t *x = a, *y = b;
  return x->fragmentId < y->fragmentId ? -1 : x->fragmentId > y->fragmentId;
}

/* Benign characters: letters (either case) and digits. */
static char benign(random_t *r) {
  static const char set[] =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return set[random_generate(r) % (sizeof set - 1)];
}

/* Splits DATA (LENGTH bytes) of flow FLOWID into packets on queue Q. */
static bool_t fragment(queue_t *q, random_t *r, long flowId, const char *data,
                       long length) {
  long n = (long)(random_generate(r) % (unsigned long)length) + 1;
  for (long f = 0; f < n; f++) {
    long lo = length * f / n, hi = length * (f + 1) / n;
    packet_t *p = TM_MALLOC(sizeof *p + (size_t)(hi - lo));
    if (!p)
      return FALSE;
    p->flowId = flowId;
    p->fragmentId = f;
    p->numFragment = n;
    p->length = hi - lo;
    memcpy(p->data, data + lo, (size_t)(hi - lo));
    if (!queue_push(q, p))
      return FALSE;
  }
  return TRUE;
}

stream_t *stream_create(long numFlow, long percentAttack, long maxDataLength,
                        unsigned long seed) {
  stream_t *s = TM_MALLOC(sizeof *s);
  random_t *r = random_alloc();
  char *data = SEQ_MALLOC((size_t)maxDataLength + 64);
  if (!s || !r || !data)
    return NULL;
  random_seed(r, seed);
  s->numFlow = numFlow;
  s->numAttack = 0;
  s->packets = queue_alloc(numFlow * 2);
  s->isAttack = SEQ_MALLOC((size_t)numFlow + 1);
  if (!s->packets || !s->isAttack)
    return NULL;
  for (long flow = 1; flow <= numFlow; flow++) {
    long length = (long)(random_generate(r) % (unsigned long)maxDataLength) + 1;
    for (long i = 0; i < length; i++)
      data[i] = benign(r);
    bool_t attack = (long)(random_generate(r) % 100) < percentAttack;
    if (attack) {
      /* Overwrite a random stretch with a signature (the data grows when
       * the signature is longer than it). */
      const char *sig =
          detector_dictionary[random_generate(r) %
                              (unsigned long)detector_numSignature];
      long sl = (long)strlen(sig);
      long at =
          length > sl
              ? (long)(random_generate(r) % (unsigned long)(length - sl + 1))
              : 0;
      memcpy(data + at, sig, (size_t)sl);
      if (at + sl > length)
        length = at + sl;
      s->numAttack++;
    }
    s->isAttack[flow] = (char)attack;
    if (!fragment(s->packets, r, flow, data, length))
      return NULL;
  }
  queue_shuffle(s->packets, r);
  SEQ_FREE(data);
  random_free(r);
  return s;
}

packet_t *stream_getPacket(stream_t *s) { return queue_pop(s->packets); }
