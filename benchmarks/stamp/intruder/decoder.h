/*
 * decoder.h - intruder's flow reassembly: fragments of a flow are kept, in
 * order, in a shared map (flow id -> sorted list of packets) until all have
 * arrived; the whole flow's data then goes to a shared queue of decoded
 * flows. decoder_process and decoder_getComplete run inside transactions.
 */
#ifndef INTRUDER_DECODER_H
#define INTRUDER_DECODER_H

#include "map.h"
#include "packet.h"
#include "queue.h"

typedef struct decoded {
  long flowId;
  char *data; /* NUL-terminated */
} decoded_t;

typedef struct decoder {
  map_t *fragmentedMap;  /* flowId -> list_t of packet_t by fragmentId */
  queue_t *decodedQueue; /* of decoded_t */
} decoder_t;

typedef enum decoder_error {
  DECODER_OK,
  DECODER_BAD_FRAGMENT, /* fragment id or count out of range, duplicate */
  DECODER_NO_MEMORY,
} decoder_error_t;

decoder_t *decoder_alloc(void);
decoder_error_t decoder_process(decoder_t *d, packet_t *p);
/* A completely reassembled flow, or NULL. */
decoded_t *decoder_getComplete(decoder_t *d);

#endif /* INTRUDER_DECODER_H */
