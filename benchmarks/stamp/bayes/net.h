/*
 * net.h - bayes's learned network, shared by the learner threads and kept
 * in the pool: per variable its parents (ascending), its children, its
 * current local score and the number of edges learned into it. The edge
 * operations and the path search run inside the learner's transactions.
 */
#ifndef BAYES_NET_H
#define BAYES_NET_H

typedef struct net_var {
  long num_parents;
  long num_children;
  long learned; /* edges inserted into this variable */
  double score; /* local score with the current parents */
  long *parents;
  long *children;
} net_var_t;

typedef struct net {
  long num_var;
  net_var_t *vars;
} net_t;

/* An empty network (no edges, scores 0) in the pool; NULL if out of
 * memory. */
net_t *net_alloc(long num_var);
void net_free(net_t *n);

int net_has_edge(const net_t *n, long from, long to);
void net_insert_edge(net_t *n, long from, long to);
void net_remove_edge(net_t *n, long from, long to);

/* Whether a directed path leads from FROM to TO, not using the edge
 * SKIP_FROM -> SKIP_TO (pass -1 to use every edge). VISITED and QUEUE are
 * private scratch of num_var entries. */
int net_is_path(const net_t *n, long from, long to, long skip_from,
                long skip_to, char *visited, long *queue);

/* Outside transactions: parents and children agree, no duplicates or self
 * loops, at most MAX_PARENTS parents, and no cycle. Returns 1, or 0 after a
 * message on stderr. */
int net_check(const net_t *n, long max_parents);

#endif /* BAYES_NET_H */
