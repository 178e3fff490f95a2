/*
 * detector.h - intruder's signature matching: a flow is an attack when its
 * reassembled data, lower-cased, contains a word of the dictionary. Runs on
 * private data, outside transactions.
 */
#ifndef INTRUDER_DETECTOR_H
#define INTRUDER_DETECTOR_H

#include "types.h"

/* The attack signatures; benign data never contains '/' or '.'. */
extern const char *const detector_dictionary[];
extern const long detector_numSignature;

bool_t detector_isAttack(const char *data);

#endif /* INTRUDER_DETECTOR_H */
