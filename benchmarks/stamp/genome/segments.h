/*
 * segments.h - genome's input: a random gene over {a, c, g, t} and
 * numSegment overlapping samples of it, each segmentLength long. The first
 * geneLength - segmentLength + 1 samples start at every position in turn (so
 * the samples cover the gene with maximal overlaps), the rest at random
 * positions; duplicates are expected (the sequencer removes them).
 */
#ifndef GENOME_SEGMENTS_H
#define GENOME_SEGMENTS_H

typedef struct segments {
  long geneLength;
  long segmentLength;
  long numSegment;
  char *gene;     /* geneLength + 1 bytes */
  char **strings; /* numSegment strings of segmentLength + 1 bytes */
} segments_t;

/* NULL when out of memory; SEED fixes gene and samples. */
segments_t *segments_create(long geneLength, long segmentLength,
                            long numSegment, unsigned long seed);

#endif /* GENOME_SEGMENTS_H */
