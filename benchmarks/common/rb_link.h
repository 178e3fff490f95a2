/*
 * rb_link.h - the links of a red-black tree node, embedded as the first
 * member of the nodes of the trees built on rb_balance.h.
 */
#ifndef PTM_BENCH_RB_LINK_H
#define PTM_BENCH_RB_LINK_H

typedef struct rb_link {
  struct rb_link *parent, *left, *right;
  long red;
} rb_link_t;

#endif /* PTM_BENCH_RB_LINK_H */
