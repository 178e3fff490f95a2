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
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "adtree.h"
#include "data.h"
#include "learner.h"
#include "options.h"
#include "stamp_result.h"
#include "timer.h"
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

static long parse_long(int opt, const char *s, long min, long max) {
  return stamp_option_long("bayes", opt, s, min, max, usage);
}

static double parse_double(int opt, const char *s, double min, double max) {
  return stamp_option_double("bayes", opt, s, min, max, usage);
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
  double penalty = 2, quality = 1, expected = 0;
  int check_expected = 0;
  int c;
  opterr = 0;
  while ((c = getopt(argc, argv, ":v:r:n:p:s:i:e:q:t:c:h")) != -1) {
    switch (c) {
    case 'v':
      num_var = parse_long(c, optarg, 2, 1024);
      break;
    case 'r':
      num_record = parse_long(c, optarg, 1, 1L << 24);
      break;
    case 'n':
      max_parents = parse_long(c, optarg, 0, 20);
      break;
    case 'p':
      percent = parse_long(c, optarg, 0, 100);
      break;
    case 's':
      seed = (unsigned long)parse_long(c, optarg, 0, 0xffffffffL);
      break;
    case 'i':
      penalty = parse_double(c, optarg, 0, 1e6);
      break;
    case 'e':
      max_learned = parse_long(c, optarg, -1, 1L << 20);
      break;
    case 'q':
      quality = parse_double(c, optarg, 1e-9, 1);
      break;
    case 't':
      threads = parse_long(c, optarg, 1, STAMP_MAX_THREADS);
      break;
    case 'c':
      expected = parse_double(c, optarg, -1e300, 1e300);
      check_expected = 1;
      break;
    case ':':
      fprintf(stderr, "bayes: option -%c needs a value\n", optopt);
      usage();
      break;
    case '?':
      fprintf(stderr, "bayes: unknown option -%c\n", optopt);
      usage();
      break;
    default:
      usage();
    }
  }
  if (optind < argc) {
    fprintf(stderr, "bayes: unexpected argument '%s'\n", argv[optind]);
    usage();
  }
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

  thread_startup(threads);
  TIMER_T start, stop;
  stamp_result_start();
  TIMER_READ(start);
  thread_start(learner_run, l);
  TIMER_READ(stop);
  stamp_result_stop();
  thread_shutdown();

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
  printf("Learning time              = %f seconds\n",
         TIMER_DIFF_SECONDS(start, stop));
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
