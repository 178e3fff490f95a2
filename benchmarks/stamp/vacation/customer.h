/* customer.h - a vacation customer and the reservations it holds. */
#ifndef VACATION_CUSTOMER_H
#define VACATION_CUSTOMER_H

#include "list.h"
#include "reservation.h"

typedef struct customer {
  long id;
  list_t *reservationInfoList; /* of reservation_info_t, by (type, id) */
} customer_t;

customer_t *customer_alloc(long id);
void customer_free(customer_t *c); /* and its reservation records */
/* FALSE if the customer already holds (type, id). */
bool_t customer_addReservationInfo(customer_t *c, reservation_type_t type,
                                   long id, long price);
/* The sum of the prices of the customer's reservations. */
long customer_getBill(customer_t *c);

#endif /* VACATION_CUSTOMER_H */
