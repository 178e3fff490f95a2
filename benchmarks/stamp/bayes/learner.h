/*
 * learner.h - bayes's structure learner (hill climbing, as STAMP's
 * learner.c): a shared list of tasks, one per variable at most, each the
 * best edge operation found for it (insert u->v, remove u->v, reverse
 * u->v) with its estimated score gain, best first. A thread pops a task
 * and, in one transaction, checks it is still valid (no cycle, limits),
 * recomputes its gain on the current network and applies it if the gain
 * is positive and at least QUALITY times the estimate; then it looks for
 * the variable's next best operation (scored outside transactions from a
 * snapshot of the parents, validated and queued in a transaction).
 */
#ifndef BAYES_LEARNER_H
#define BAYES_LEARNER_H

#include "list.h"
#include "net.h"
#include "score.h"

typedef struct learner {
  scorer_t scorer;
  net_t *net;    /* in the pool */
  list_t *tasks; /* in the pool */
  long num_var;
  long max_parents; /* -n */
  long max_learned; /* -e: edges learned per variable, -1: no limit */
  double quality;   /* -q */
  long *applied;    /* per thread: operations applied */
  long *dropped;    /* per thread: tasks found invalid or not improving */
  long bad_tasks;   /* tasks popped with a non-positive gain (only
                       positive ones are queued) */
  int out_of_memory;
} learner_t;

/* NULL if out of memory. */
learner_t *learner_alloc(const adtree_t *adtree, long num_threads,
                         long max_parents, long max_learned,
                         double insert_penalty, double quality);

/* The thread function: thread_start(learner_run, learner). Scores every
 * variable with no parents and queues its first task, then learns. */
void learner_run(void *learner);

/* The sum of the variables' scores (outside transactions). */
double learner_score(const learner_t *l);

#endif /* BAYES_LEARNER_H */
