/*
 * bayes - STAMP's Bayesian network structure learning application (Minh et
 * al., IISWC 2008): records are sampled from a random network (data.h),
 * counted through an ADtree (adtree.h), and the learner threads climb the
 * score (score.h) with transactional edge operations on a shared network
 * and task list (learner.h). At the end the learned network is checked:
 * acyclic and consistent, every variable's score right for its parents
 * (against a scan of the records), and the total at least the empty
 * network's.
 *
 *   bayes [-v VARS] [-r RECORDS] [-n MAX_PARENTS] [-p PERCENT] [-s SEED]
 *         [-i INSERT_PENALTY] [-e MAX_LEARNED] [-q QUALITY] [-t THREADS]
 *         [-c EXPECTED_SCORE]
 *
 * -c also checks the learned score against a known one (relative 1e-6):
 * a single-threaded run is deterministic, so every library must learn the
 * network the baseline learns.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "adtree.h"
#include "data.h"
#include "learner.h"
#include "options.h"
#include "stamp_result.h"
#include "tm.h"

static void usage(void) {
  fprintf(stderr,
          "usage: bayes [-v VARS] [-r RECORDS] [-n MAX_PARENTS] [-p PERCENT] "
          "[-s SEED]\n"
          "             [-i INSERT_PENALTY] [-e MAX_LEARNED] [-q QUALITY] "
          "[-t THREADS]\n"
          "  -v VARS            variables, 2..1024 (default 32)\n"
          "  -r RECORDS         records sampled, 1..2^24 (default 4096)\n"
          "  -n MAX_PARENTS     parents per variable, 0..20 (default 10)\n"
          "  -p PERCENT         chance of each possible parent in the "
          "generated network (default 40)\n"
          "  -s SEED            random seed (default 1)\n"
          "  -i INSERT_PENALTY  score penalty factor per parameter, >= 0 "
          "(default 2)\n"
          "  -e MAX_LEARNED     edges learned per variable, -1: no limit "
          "(default -1)\n"
          "  -q QUALITY         apply an operation if its gain is at least "
          "QUALITY x its estimate, (0, 1] (default 1)\n"
          "  -t THREADS         learner threads (default 1)\n"
          "  -c EXPECTED_SCORE  check the learned score (relative 1e-6)\n");
  exit(2);
}

/* Every variable's stored score against its parents: the ADtree's count
 * exactly (the same computation), a scan of the records within rounding. */
static int check_scores(const learner_t *l) {
  const net_t *n = l->net;
  for (long v = 0; v < n->num_var; v++) {
    const net_var_t *x = &n->vars[v];
    double tree = score_local(&l->scorer, v, x->parents, x->num_parents);
    double scan = score_local_scan(&l->scorer, v, x->parents, x->num_parents);
    if (tree != x->score || fabs(scan - x->score) > 1e-9 * fabs(scan) + 1e-9) {
      fprintf(stderr,
              "bayes: check failed: variable %ld has score %.9g, its parents "
              "give %.9g (ADtree) and %.9g (scan)\n",
              v, x->score, tree, scan);
      return 0;
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  long num_var = 32, num_record = 4096, max_parents = 10, percent = 40;
  long max_learned = -1, threads = 1;
  unsigned long seed = 1;
  double penalty = 2, quality = 1, expected = NAN;
  const stamp_option_t options[] = {
      {'v', STAMP_OPT_LONG, &num_var, 2, 1024},
      {'r', STAMP_OPT_LONG, &num_record, 1, 1L << 24},
      {'n', STAMP_OPT_LONG, &max_parents, 0, 20},
      {'p', STAMP_OPT_LONG, &percent, 0, 100},
      {'s', STAMP_OPT_ULONG, &seed, 0, 0xffffffffL},
      {'i', STAMP_OPT_DOUBLE, &penalty, 0, 1e6},
      {'e', STAMP_OPT_LONG, &max_learned, -1, 1L << 20},
      {'q', STAMP_OPT_DOUBLE, &quality, 1e-9, 1},
      {'t', STAMP_OPT_LONG, &threads, 1, STAMP_MAX_THREADS},
      {'c', STAMP_OPT_DOUBLE, &expected, -1e300, 1e300},
      {0, STAMP_OPT_FLAG, NULL, 0, 0}};
  stamp_parse_options(argc, argv, "bayes", options, usage);
  int check_expected = !isnan(expected);
  if (max_parents >= num_var)
    max_parents = num_var - 1;

  printf("Random seed                = %lu\n", seed);
  printf("Number of vars             = %ld\n", num_var);
  printf("Number of records          = %ld\n", num_record);
  printf("Max num parents            = %ld\n", max_parents);
  printf("%% chance of parent         = %ld\n", percent);
  printf("Insert penalty             = %g\n", penalty);
  printf("Max num edge learned / var = %ld\n", max_learned);
  printf("Operation quality factor   = %g\n", quality);
  data_t *data = data_generate(num_var, num_record, max_parents, percent, seed);
  adtree_t *adtree = data ? adtree_build(data) : NULL;
  learner_t *l = adtree ? learner_alloc(adtree, threads, max_parents,
                                        max_learned, penalty, quality)
                        : NULL;
  if (!l) {
    fprintf(stderr, "bayes: out of memory\n");
    return 1;
  }
  printf("ADtree nodes               = %ld\n", adtree->num_nodes);

  stamp_result_run(threads, learner_run, l);

  long applied = 0, dropped = 0, edges = 0;
  for (long t = 0; t < threads; t++) {
    applied += l->applied[t];
    dropped += l->dropped[t];
  }
  for (long v = 0; v < num_var; v++)
    edges += l->net->vars[v].num_parents;
  /* The reference scores, from scans of the records. */
  double empty = 0, actual = 0;
  for (long v = 0; v < num_var; v++) {
    empty += score_local_scan(&l->scorer, v, NULL, 0);
    actual +=
        score_local_scan(&l->scorer, v, &data->parents[v * (max_parents + 1)],
                         data->num_parents[v]);
  }
  double learned = learner_score(l);
  long generated = 0;
  for (long v = 0; v < num_var; v++)
    generated += data->num_parents[v];
  printf("Learning time              = %f seconds\n", stamp_result_seconds());
  printf("Operations applied         = %ld (%ld tasks dropped)\n", applied,
         dropped);
  printf("Learned edges              = %ld (generating network: %ld)\n", edges,
         generated);
  printf("Learn score                = %f\n", learned);
  printf("Actual score               = %f\n", actual);
  printf("Empty network score        = %f\n", empty);

  int ok = 1;
  if (l->out_of_memory) {
    fprintf(stderr, "bayes: out of memory while learning\n");
    ok = 0;
  }
  if (!list_isEmpty(l->tasks)) {
    fprintf(stderr, "bayes: check failed: tasks left in the list\n");
    ok = 0;
  }
  if (!net_check(l->net, max_parents) || !check_scores(l))
    ok = 0;
  if (ok && (learned < empty || (edges > 0 && !(learned > empty)))) {
    fprintf(stderr,
            "bayes: check failed: learned score %f below the empty "
            "network's %f\n",
            learned, empty);
    ok = 0;
  }
  if (ok && check_expected &&
      fabs(learned - expected) > 1e-6 * fabs(expected)) {
    fprintf(stderr, "bayes: check failed: learned score %f, expected %f\n",
            learned, expected);
    ok = 0;
  }
  if (ok && l->bad_tasks) {
    fprintf(stderr, "bayes: check failed: %ld tasks popped without a gain\n",
            l->bad_tasks);
    ok = 0;
  }
  if (ok && applied < edges) {
    fprintf(stderr, "bayes: check failed: %ld edges from %ld operations\n",
            edges, applied);
    ok = 0;
  }
  return stamp_result_print("bayes", threads, ok);
}
