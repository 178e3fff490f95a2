/*
 * data.h - bayes's input: a random Bayesian network over binary variables
 * (the network to be learned) and records sampled from it, as STAMP's
 * data.c. Parents of a variable come from the variables before it in a
 * random order (so the network is acyclic), each with PERCENT chance, at
 * most MAX_PARENTS; every parent configuration gets a random probability
 * of the value 1. Read-only once generated (ordinary heap).
 */
#ifndef BAYES_DATA_H
#define BAYES_DATA_H

typedef struct data {
  long num_var;
  long num_record;
  unsigned char *records; /* num_record rows of num_var values (0/1) */
  /* The generating network. */
  long *num_parents; /* per variable */
  long *parents;     /* num_var rows of max_parents ids, ascending */
  long max_parents;
} data_t;

/* Generates the network and samples NUM_RECORD records (seed SEED); NULL
 * if out of memory. */
data_t *data_generate(long num_var, long num_record, long max_parents,
                      long percent, unsigned long seed);
void data_free(data_t *d);

static inline unsigned char data_value(const data_t *d, long record, long var) {
  return d->records[record * d->num_var + var];
}

#endif /* BAYES_DATA_H */
