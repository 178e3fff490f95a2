/* packet.h - one fragment of a network flow, as intruder captures it. */
#ifndef INTRUDER_PACKET_H
#define INTRUDER_PACKET_H

typedef struct packet {
  long flowId;     /* 1..numFlow */
  long fragmentId; /* 0..numFragment-1 */
  long numFragment;
  long length; /* bytes of data[] */
  char data[];
} packet_t;

/* Orders the fragments of one flow by fragmentId. */
long packet_compareFragmentId(const void *a, const void *b);

#endif /* INTRUDER_PACKET_H */
