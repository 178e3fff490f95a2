/*
 * genome (STAMP, Minh et al. IISWC 2008): gene sequencing. A random gene is
 * sampled into many overlapping segments; the sequencer removes duplicate
 * segments, links segments whose ends overlap (longest overlaps first) and
 * spells the gene back. The result must equal the original gene.
 *
 *   genome [-g GENE_LENGTH] [-s SEGMENT_LENGTH] [-n NUM_SEGMENTS] [-t THREADS]
 *
 * simulator input: -g256 -s16 -n16384; larger: -g16384 -s64 -n16777216
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "segments.h"
#include "sequencer.h"
#include "stamp_result.h"
#include "tm.h"

static long geneLength = 16384, segmentLength = 64, numSegment = 1 << 22,
            numThread = 1;

static void usage(void) {
  fprintf(stderr, "usage: genome [-g GENE_LENGTH] [-s SEGMENT_LENGTH] "
                  "[-n NUM_SEGMENTS] [-t THREADS]\n"
                  "  defaults: -g16384 -s64 -n4194304 -t1\n");
  exit(2);
}

static const stamp_option_t options[] = {
    {'g', STAMP_OPT_LONG, &geneLength, 2, 1L << 32},
    {'s', STAMP_OPT_LONG, &segmentLength, 2, 1L << 16},
    {'n', STAMP_OPT_LONG, &numSegment, 1, 1L << 40},
    {'t', STAMP_OPT_LONG, &numThread, 1, STAMP_MAX_THREADS},
    {0, STAMP_OPT_FLAG, NULL, 0, 0}};

int main(int argc, char **argv) {
  stamp_parse_options(argc, argv, "genome", options, usage);
  if (segmentLength > geneLength ||
      numSegment < geneLength - segmentLength + 1) {
    fprintf(
        stderr,
        "genome: need SEGMENT_LENGTH <= GENE_LENGTH and at least "
        "GENE_LENGTH - SEGMENT_LENGTH + 1 = %ld segments to cover the gene\n",
        geneLength - segmentLength + 1);
    usage();
  }
  printf("genome: gene %ld, segments %ld x %ld, threads %ld\n", geneLength,
         numSegment, segmentLength, numThread);
  segments_t *segments =
      segments_create(geneLength, segmentLength, numSegment, 0);
  sequencer_t *sequencer = segments ? sequencer_alloc(segments) : NULL;
  if (!sequencer) {
    fprintf(stderr, "genome: out of memory (PTM_POOL_SIZE?)\n");
    return 1;
  }
  stamp_result_run(numThread, sequencer_run, sequencer);
  int ok =
      sequencer->sequence && strcmp(sequencer->sequence, segments->gene) == 0;
  if (sequencer->sequence && !ok)
    fprintf(stderr,
            "genome: the sequence (%zu characters) differs from the "
            "gene (%ld)\n",
            strlen(sequencer->sequence), geneLength);
  printf("genome: %ld unique segments; sequence matches gene: %s\n",
         sequencer->numUnique, ok ? "yes" : "no");
  return stamp_result_print("genome", numThread, ok);
}
