/* Customers: see customer.h. */
#include "customer.h"

#include "tm.h"

customer_t *customer_alloc(long id) {
  customer_t *c = TM_MALLOC(sizeof *c);
  if (!c)
    return NULL;
  c->id = id;
  c->reservationInfoList = list_alloc(reservation_info_compare);
  if (!c->reservationInfoList) {
    TM_FREE(c);
    return NULL;
  }
  return c;
}

void customer_free(customer_t *c) {
  list_iter_t it;
  list_iter_reset(&it, c->reservationInfoList);
  while (list_iter_hasNext(&it))
    reservation_info_free(list_iter_next(&it));
  list_free(c->reservationInfoList);
  TM_FREE(c);
}

bool_t customer_addReservationInfo(customer_t *c, reservation_type_t type,
                                   long id, long price) {
  reservation_info_t key = {type, id, price};
  if (list_find(c->reservationInfoList, &key))
    return FALSE;
  reservation_info_t *info = reservation_info_alloc(type, id, price);
  if (!info)
    return FALSE;
  return list_insert(c->reservationInfoList, info);
}

long customer_getBill(customer_t *c) {
  long bill = 0;
  list_iter_t it;
  list_iter_reset(&it, c->reservationInfoList);
  while (list_iter_hasNext(&it)) {
    reservation_info_t *info = list_iter_next(&it);
    bill += info->price;
  }
  return bill;
}
