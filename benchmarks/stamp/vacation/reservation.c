/* Items and reservation records: see reservation.h. */
#include "reservation.h"

#include "tm.h"

reservation_t *reservation_alloc(long id, long numTotal, long price) {
  reservation_t *r = TM_MALLOC(sizeof *r);
  if (r) {
    r->id = id;
    r->numUsed = 0;
    r->numFree = numTotal;
    r->numTotal = numTotal;
    r->price = price;
  }
  return r;
}

void reservation_free(reservation_t *r) { TM_FREE(r); }

bool_t reservation_addToTotal(reservation_t *r, long num) {
  if (r->numFree + num < 0)
    return FALSE;
  r->numFree += num;
  r->numTotal += num;
  return TRUE;
}

bool_t reservation_make(reservation_t *r) {
  if (r->numFree < 1)
    return FALSE;
  r->numUsed++;
  r->numFree--;
  return TRUE;
}

bool_t reservation_cancel(reservation_t *r) {
  if (r->numUsed < 1)
    return FALSE;
  r->numUsed--;
  r->numFree++;
  return TRUE;
}

bool_t reservation_updatePrice(reservation_t *r, long price) {
  if (price < 0)
    return FALSE;
  r->price = price;
  return TRUE;
}

bool_t reservation_isValid(reservation_t *r) {
  return r->numUsed >= 0 && r->numFree >= 0 && r->numTotal >= 0 &&
         r->numUsed + r->numFree == r->numTotal && r->price >= 0;
}

reservation_info_t *reservation_info_alloc(reservation_type_t type, long id,
                                           long price) {
  reservation_info_t *info = TM_MALLOC(sizeof *info);
  if (info) {
    info->type = type;
    info->id = id;
    info->price = price;
  }
  return info;
}

void reservation_info_free(reservation_info_t *info) { TM_FREE(info); }

long reservation_info_compare(const void *a, const void *b) {
  const reservation_info_t *x = a, *y = b;
  if (x->type != y->type)
    return (long)x->type - (long)y->type;
  return x->id < y->id ? -1 : x->id > y->id ? 1 : 0;
}
