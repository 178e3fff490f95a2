/* genome's sequencer: see sequencer.h. */
#include "sequencer.h"

#include <stdio.h>
#include <string.h>

#include "tm.h"

/* Samples inserted per transaction in step 1 (as STAMP's CHUNK_STEP1). */
#define CHUNK_STEP1 12

/* FNV-1a over N characters. */
static ulong_t hash_chars(const char *s, long n) {
  ulong_t h = 14695981039346656037UL;
  for (long i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211UL;
  }
  return h;
}

static ulong_t hash_segment(const void *key) {
  const char *s = key;
  return hash_chars(s, (long)strlen(s));
}

/* strcmp, as STAMP's compareSegment (inside a transaction, the runtime's). */
static long compare_segment(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

static bool_t same_chars(const char *a, const char *b, long n) {
  for (long i = 0; i < n; i++)
    if (a[i] != b[i])
      return FALSE;
  return TRUE;
}

sequencer_t *sequencer_alloc(segments_t *segments) {
  sequencer_t *s = TM_MALLOC(sizeof *s);
  if (!s)
    return NULL;
  s->segments = segments;
  s->numBucket = segments->geneLength;
  s->uniqueSegments =
      hashtable_alloc(s->numBucket, hash_segment, compare_segment);
  s->startTable = TM_MALLOC((size_t)s->numBucket * sizeof(list_t *));
  if (!s->uniqueSegments || !s->startTable)
    return NULL;
  for (long b = 0; b < s->numBucket; b++)
    if (!(s->startTable[b] = list_alloc(NULL)))
      return NULL;
  s->numUnique = 0;
  s->entries = NULL;
  s->matchLength = 0;
  s->sequence = NULL;
  return s;
}

/* This thread's share [*lo, *hi) of N items. */
static void partition(long n, long *lo, long *hi) {
  long id = thread_getId(), nt = thread_getNumThread();
  *lo = n * id / nt;
  *hi = n * (id + 1) / nt;
}

static void remove_duplicates(sequencer_t *s) {
  segments_t *seg = s->segments;
  long lo, hi;
  partition(seg->numSegment, &lo, &hi);
  for (long i = lo; i < hi; i += CHUNK_STEP1) {
    long end = i + CHUNK_STEP1 < hi ? i + CHUNK_STEP1 : hi;
    TM_BEGIN();
    for (long j = i; j < end; j++)
      hashtable_insert(s->uniqueSegments, seg->strings[j], seg->strings[j]);
    TM_END();
  }
}

/* Thread 0, between barriers: one construct entry per unique sample. */
static bool_t make_entries(sequencer_t *s) {
  s->numUnique = hashtable_getSize(s->uniqueSegments);
  s->entries = TM_MALLOC((size_t)s->numUnique * sizeof *s->entries);
  if (!s->entries)
    return FALSE;
  long i = 0, bucket = 0;
  hashtable_entry_t *e = NULL;
  while (hashtable_next(s->uniqueSegments, &bucket, &e)) {
    construct_entry_t *c = &s->entries[i++];
    c->segment = e->key;
    c->isStart = TRUE;
    c->next = NULL;
    c->startPtr = c;
    c->endPtr = c;
    c->overlap = 0;
  }
  return TRUE;
}

/* Step 2a: enter this thread's chain starts under their prefix's hash. */
static void enter_starts(sequencer_t *s, long lo, long hi) {
  long m = s->matchLength;
  for (long i = lo; i < hi; i++) {
    construct_entry_t *c = &s->entries[i];
    if (!c->isStart)
      continue;
    long b = (long)(hash_chars(c->segment, m) % (ulong_t)s->numBucket);
    TM_BEGIN();
    list_insert(s->startTable[b], c);
    TM_END();
  }
}

/* Step 2b: link each of this thread's chain ends to a start whose prefix
 * equals its suffix. Only the owner links an end, so E->next is stable
 * outside the transaction; a start may be taken by another thread, which
 * the transaction re-checks. */
static void link_ends(sequencer_t *s, long lo, long hi) {
  long m = s->matchLength, len = s->segments->segmentLength;
  for (long i = lo; i < hi; i++) {
    construct_entry_t *e = &s->entries[i];
    if (e->next)
      continue;
    const char *suffix = e->segment + (len - m);
    long b = (long)(hash_chars(suffix, m) % (ulong_t)s->numBucket);
    list_iter_t it;
    list_iter_reset(&it, s->startTable[b]);
    while (list_iter_hasNext(&it)) {
      construct_entry_t *c = list_iter_next(&it);
      if (c == e || !same_chars(c->segment, suffix, m))
        continue;
      bool_t linked = FALSE;
      TM_BEGIN();
      if (c->isStart && !e->next && c->endPtr != e) {
        construct_entry_t *chainStart = e->startPtr;
        construct_entry_t *chainEnd = c->endPtr;
        c->isStart = FALSE;
        e->next = c;
        e->overlap = m;
        chainStart->endPtr = chainEnd;
        chainEnd->startPtr = chainStart;
        linked = TRUE;
      }
      TM_END();
      if (linked)
        break;
    }
  }
}

/* Step 3 (thread 0): spell the chain that starts at the only start. */
static void spell(sequencer_t *s) {
  construct_entry_t *start = NULL;
  long starts = 0;
  for (long i = 0; i < s->numUnique; i++)
    if (s->entries[i].isStart) {
      start = &s->entries[i];
      starts++;
    }
  if (starts != 1) {
    fprintf(stderr, "genome: %ld chains left (expected 1)\n", starts);
    return;
  }
  long len = s->segments->segmentLength;
  char *seq = SEQ_MALLOC((size_t)(s->numUnique * len + 1));
  if (!seq)
    return;
  memcpy(seq, start->segment, (size_t)len);
  long n = len, count = 1;
  for (construct_entry_t *e = start; e->next && count <= s->numUnique;
       e = e->next, count++) {
    memcpy(seq + n, e->next->segment + e->overlap, (size_t)(len - e->overlap));
    n += len - e->overlap;
  }
  seq[n] = '\0';
  if (count != s->numUnique)
    fprintf(stderr, "genome: the chain holds %ld of %ld samples\n", count,
            s->numUnique);
  s->sequence = seq;
}

void sequencer_run(void *arg) {
  sequencer_t *s = arg;
  long id = thread_getId();

  remove_duplicates(s);
  thread_barrier_wait();
  if (id == 0 && !make_entries(s)) {
    fprintf(stderr, "genome: out of memory\n");
    s->numUnique = 0;
  }
  thread_barrier_wait();

  long lo, hi, blo, bhi;
  partition(s->numUnique, &lo, &hi);
  partition(s->numBucket, &blo, &bhi);
  for (long m = s->segments->segmentLength - 1; m > 0; m--) {
    if (id == 0)
      s->matchLength = m;
    thread_barrier_wait();
    enter_starts(s, lo, hi);
    thread_barrier_wait();
    link_ends(s, lo, hi);
    thread_barrier_wait();
    for (long b = blo; b < bhi; b++)
      list_clear(s->startTable[b]);
  }
  thread_barrier_wait();
  if (id == 0)
    spell(s);
}
