/* genome's input: see segments.h. */
#include "segments.h"

#include <string.h>

#include "random.h"
#include "tm.h"

segments_t *segments_create(long geneLength, long segmentLength,
                            long numSegment, unsigned long seed) {
  segments_t *s = TM_MALLOC(sizeof *s);
  random_t *r = random_alloc();
  if (!s || !r)
    return NULL;
  random_seed(r, seed);
  s->geneLength = geneLength;
  s->segmentLength = segmentLength;
  s->numSegment = numSegment;
  s->gene = TM_MALLOC((size_t)geneLength + 1);
  s->strings = TM_MALLOC((size_t)numSegment * sizeof(char *));
  /* One block for all samples. */
  char *block = TM_MALLOC((size_t)numSegment * (size_t)(segmentLength + 1));
  if (!s->gene || !s->strings || !block)
    return NULL;
  static const char bases[4] = {'a', 'c', 'g', 't'};
  for (long i = 0; i < geneLength; i++)
    s->gene[i] = bases[random_generate(r) % 4];
  s->gene[geneLength] = '\0';
  long positions = geneLength - segmentLength + 1;
  for (long i = 0; i < numSegment; i++) {
    long start = i < positions
                     ? i
                     : (long)(random_generate(r) % (unsigned long)positions);
    char *str = block + i * (segmentLength + 1);
    memcpy(str, s->gene + start, (size_t)segmentLength);
    str[segmentLength] = '\0';
    s->strings[i] = str;
  }
  random_free(r);
  return s;
}
