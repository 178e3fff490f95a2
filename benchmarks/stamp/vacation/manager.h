/*
 * manager.h - vacation's database: one red-black tree per item type (id ->
 * reservation_t) and one of customers (id -> customer_t). Every operation
 * runs inside the caller's transaction (the client's atomic blocks).
 */
#ifndef VACATION_MANAGER_H
#define VACATION_MANAGER_H

#include "customer.h"
#include "map.h"
#include "reservation.h"

typedef struct manager {
  map_t *tables[NUM_RESERVATION_TYPE]; /* car, flight, room */
  map_t *customerTable;
} manager_t;

manager_t *manager_alloc(void);

/* Adds NUM units (price PRICE if >= 0) of item ID, creating it if needed;
 * a negative NUM removes units, and the item when none remain. */
bool_t manager_addItem(manager_t *m, reservation_type_t type, long id, long num,
                       long price);
bool_t manager_deleteItem(manager_t *m, reservation_type_t type, long id,
                          long num);
/* Free units of the item, or -1 if it does not exist. */
long manager_queryFree(manager_t *m, reservation_type_t type, long id);
/* Price of the item, or -1 if it does not exist. */
long manager_queryPrice(manager_t *m, reservation_type_t type, long id);

bool_t manager_addCustomer(manager_t *m, long customerId);
/* Cancels the customer's reservations and removes it. */
bool_t manager_deleteCustomer(manager_t *m, long customerId);
/* The customer's bill, or -1 if there is no such customer. */
long manager_queryCustomerBill(manager_t *m, long customerId);
/* Reserves one unit of the item for the customer; FALSE if either does not
 * exist, none is free, or the customer already holds it. */
bool_t manager_reserve(manager_t *m, reservation_type_t type, long customerId,
                       long id);

/* Consistency of all tables (outside transactions): every tree valid, every
 * item valid, and each item's numUsed equal to the number of customers
 * holding it. Prints what is wrong; returns TRUE if all is well. */
bool_t manager_check(manager_t *m);

#endif /* VACATION_MANAGER_H */
