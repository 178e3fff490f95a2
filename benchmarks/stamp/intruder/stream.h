/*
 * stream.h - intruder's input: numFlow flows of random printable data, a
 * given percentage of them carrying an attack signature of the detector's
 * dictionary, each split into fragments; all fragments of all flows are
 * shuffled into one shared queue, the packet stream.
 */
#ifndef INTRUDER_STREAM_H
#define INTRUDER_STREAM_H

#include "packet.h"
#include "queue.h"
#include "types.h"

typedef struct stream {
  long numFlow;
  queue_t *packets; /* shared: popped inside transactions */
  char *isAttack;   /* [1..numFlow]: flow carries a signature */
  long numAttack;
} stream_t;

/* NULL when out of memory. */
stream_t *stream_create(long numFlow, long percentAttack, long maxDataLength,
                        unsigned long seed);
/* The next packet, or NULL when the stream is empty (in a transaction). */
packet_t *stream_getPacket(stream_t *s);

#endif /* INTRUDER_STREAM_H */
