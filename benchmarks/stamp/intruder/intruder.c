/*
 * intruder (STAMP, Minh et al. IISWC 2008): network intrusion detection.
 * Threads take packets from a shared stream (one transaction), reassemble
 * their flows in a shared map of fragments (one transaction), take a
 * completed flow from a shared queue (one transaction) and scan it for
 * attack signatures (outside transactions). At the end every flow must have
 * been decoded exactly once and exactly the flows generated with an attack
 * must have been detected.
 *
 *   intruder [-a PERCENT_ATTACK] [-l MAX_DATA_LENGTH] [-n NUM_FLOWS]
 *            [-s SEED] [-t THREADS]
 *
 * simulator input: -a10 -l4 -n2048 -s1; larger: -a10 -l128 -n262144 -s1
 */
#include <stdio.h>
#include <stdlib.h>

#include "decoder.h"
#include "detector.h"
#include "options.h"
#include "stamp_result.h"
#include "stream.h"
#include "tm.h"

static long percentAttack = 10, maxDataLength = 16, numFlow = 1 << 18,
            numThread = 1;
static unsigned long seed = 1;

static stream_t *stream;
static decoder_t *decoder;
static char *decodedCount; /* [flow]: times decoded (each by one thread) */
static char *detected;     /* [flow]: found to be an attack */
static long errors[STAMP_MAX_THREADS];

static void usage(void) {
  fprintf(stderr, "usage: intruder [-a PERCENT_ATTACK] [-l MAX_DATA_LENGTH] "
                  "[-n NUM_FLOWS] [-s SEED] [-t THREADS]\n"
                  "  defaults: -a10 -l16 -n262144 -s1 -t1\n");
  exit(2);
}

static const stamp_option_t options[] = {
    {'a', STAMP_OPT_LONG, &percentAttack, 0, 100},
    {'l', STAMP_OPT_LONG, &maxDataLength, 1, 1L << 20},
    {'n', STAMP_OPT_LONG, &numFlow, 1, 1L << 32},
    {'s', STAMP_OPT_ULONG, &seed, 0, 1L << 32},
    {'t', STAMP_OPT_LONG, &numThread, 1, STAMP_MAX_THREADS},
    {0, STAMP_OPT_FLAG, NULL, 0, 0}};

static void process(void *arg) {
  (void)arg;
  long id = thread_getId();
  for (;;) {
    packet_t *packet;
    TM_BEGIN();
    packet = stream_getPacket(stream);
    TM_END();
    if (!packet)
      break;
    decoder_error_t error;
    TM_BEGIN();
    error = decoder_process(decoder, packet);
    TM_END();
    if (error != DECODER_OK)
      errors[id]++;
    decoded_t *flow;
    TM_BEGIN();
    flow = decoder_getComplete(decoder);
    TM_END();
    if (flow) {
      decodedCount[flow->flowId]++;
      if (detector_isAttack(flow->data))
        detected[flow->flowId] = 1;
    }
  }
}

static int check(void) {
  long bad = 0, found = 0, errorSum = 0;
  for (long i = 0; i < numThread; i++)
    errorSum += errors[i];
  for (long f = 1; f <= numFlow; f++) {
    found += detected[f];
    if (decodedCount[f] != 1 || detected[f] != stream->isAttack[f]) {
      if (bad++ < 5)
        fprintf(stderr,
                "intruder: flow %ld decoded %d times, attack %d, "
                "detected %d\n",
                f, decodedCount[f], stream->isAttack[f], detected[f]);
    }
  }
  printf("intruder: %ld flows, %ld attacks generated, %ld detected, %ld "
         "decoder errors\n",
         numFlow, stream->numAttack, found, errorSum);
  if (errorSum)
    fprintf(stderr, "intruder: %ld decoder errors\n", errorSum);
  return bad == 0 && errorSum == 0 && found == stream->numAttack;
}

int main(int argc, char **argv) {
  stamp_parse_options(argc, argv, "intruder", options, usage);
  printf("intruder: attacks %ld%%, max data length %ld, flows %ld, seed %lu, "
         "threads %ld\n",
         percentAttack, maxDataLength, numFlow, seed, numThread);
  stream = stream_create(numFlow, percentAttack, maxDataLength, seed);
  decoder = decoder_alloc();
  decodedCount = calloc((size_t)numFlow + 1, 1);
  detected = calloc((size_t)numFlow + 1, 1);
  if (!stream || !decoder || !decodedCount || !detected) {
    fprintf(stderr, "intruder: out of memory (PTM_POOL_SIZE?)\n");
    return 1;
  }
  stamp_result_run(numThread, process, NULL);
  int ok = check();
  return stamp_result_print("intruder", numThread, ok);
}
