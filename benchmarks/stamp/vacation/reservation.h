/*
 * reservation.h - vacation's items (a car, flight or room with its
 * capacity and price) and the reservation records customers hold.
 */
#ifndef VACATION_RESERVATION_H
#define VACATION_RESERVATION_H

#include "types.h"

typedef enum reservation_type {
  RESERVATION_CAR,
  RESERVATION_FLIGHT,
  RESERVATION_ROOM,
  NUM_RESERVATION_TYPE
} reservation_type_t;

/* One bookable item: numUsed + numFree == numTotal always. */
typedef struct reservation {
  long id;
  long numUsed;
  long numFree;
  long numTotal;
  long price;
} reservation_t;

/* What a customer reserved (kept in the customer's sorted list). */
typedef struct reservation_info {
  reservation_type_t type;
  long id;
  long price;
} reservation_info_t;

reservation_t *reservation_alloc(long id, long numTotal, long price);
void reservation_free(reservation_t *r);
/* Adds NUM (possibly negative) units; FALSE if fewer than -NUM are free. */
bool_t reservation_addToTotal(reservation_t *r, long num);
bool_t reservation_make(reservation_t *r);   /* FALSE if none free */
bool_t reservation_cancel(reservation_t *r); /* FALSE if none used */
bool_t reservation_updatePrice(reservation_t *r, long price);
bool_t reservation_isValid(reservation_t *r);

reservation_info_t *reservation_info_alloc(reservation_type_t type, long id,
                                           long price);
void reservation_info_free(reservation_info_t *info);
/* Orders by type, then id. */
long reservation_info_compare(const void *a, const void *b);

#endif /* VACATION_RESERVATION_H */
