/*
 * sequencer.h - genome's parallel sequencer (STAMP): rebuilds the gene from
 * its overlapping samples in three steps, run by every thread of
 * thread_start(sequencer_run, sequencer):
 *
 *  1. remove duplicate samples: each thread inserts its share of the samples
 *     into a shared hash set, a transaction per chunk of samples;
 *  2. link samples by overlap, for each overlap length from segmentLength-1
 *     down to 1: every chain start is entered (transactionally) in a shared
 *     table under the hash of its prefix of that length; then each thread
 *     looks up the suffix of each of its chain ends and links the end to a
 *     matching start in a transaction that re-checks both are still free
 *     and would not close a cycle;
 *  3. thread 0 follows the single remaining chain to spell the sequence.
 */
#ifndef GENOME_SEQUENCER_H
#define GENOME_SEQUENCER_H

#include "hashtable.h"
#include "list.h"
#include "segments.h"

typedef struct construct_entry {
  char *segment;
  bool_t isStart;                   /* no predecessor yet */
  struct construct_entry *next;     /* successor in its chain */
  struct construct_entry *startPtr; /* at a chain end: the chain's start */
  struct construct_entry *endPtr;   /* at a chain start: the chain's end */
  long overlap;                     /* characters shared with next */
} construct_entry_t;

typedef struct sequencer {
  segments_t *segments;
  hashtable_t *uniqueSegments; /* step 1 */
  long numUnique;
  construct_entry_t *entries; /* numUnique, after step 1 */
  long numBucket;
  list_t **startTable; /* step 2: chain starts by prefix hash */
  long matchLength;    /* step 2's current overlap length */
  char *sequence;      /* step 3 */
} sequencer_t;

sequencer_t *sequencer_alloc(segments_t *segments);
void sequencer_run(void *arg);

#endif /* GENOME_SEQUENCER_H */
