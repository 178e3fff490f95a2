/*
 * kmeans (STAMP, Minh et al. IISWC 2008): K-means clustering. For each
 * cluster count from MIN to MAX the points are clustered in parallel
 * (cluster.h): transactions claim chunks of points and add each point to
 * its cluster's shared running sums. At the end every run must have
 * converged (changed fraction <= threshold before the iteration limit) and
 * every centre must be the mean of the points assigned to it.
 *
 *   kmeans -i FILE [-b] [-m MAX_CLUSTERS] [-n MIN_CLUSTERS] [-t THRESHOLD]
 *          [-p THREADS] [-z]
 *
 * FILE: one point a line, "ID F1 ... FD" (-b: binary, see docs/stamp.md).
 * -z normalises every feature to mean 0, standard deviation 1 first.
 * simulator inputs: -m40 -n40 -t0.05 -i random-n2048-d16-c16.txt (low),
 * -m15 -n15 -t0.05 -i random-n2048-d16-c16.txt (high); larger:
 * -t0.00001 -i random-n65536-d32-c16.txt with the same -m/-n.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cluster.h"
#include "options.h"
#include "stamp_result.h"
#include "tm.h"

static const char *filename;
static int binary, zscore;
static long maxClusters = 13, minClusters = 4, numThread = 1;
static double threshold = 0.001;

static void usage(void) {
  fprintf(stderr, "usage: kmeans -i FILE [-b] [-m MAX_CLUSTERS] "
                  "[-n MIN_CLUSTERS] [-t THRESHOLD] [-p THREADS] [-z]\n"
                  "  defaults: -m13 -n4 -t0.001 -p1\n");
  exit(2);
}

static const stamp_option_t options[] = {
    {'i', STAMP_OPT_STRING, &filename, 0, 0},
    {'b', STAMP_OPT_FLAG, &binary, 0, 0},
    {'m', STAMP_OPT_LONG, &maxClusters, 1, 1L << 20},
    {'n', STAMP_OPT_LONG, &minClusters, 1, 1L << 20},
    {'t', STAMP_OPT_DOUBLE, &threshold, 0, 1},
    {'p', STAMP_OPT_LONG, &numThread, 1, STAMP_MAX_THREADS},
    {'z', STAMP_OPT_FLAG, &zscore, 0, 0},
    {0, STAMP_OPT_FLAG, NULL, 0, 0}};

/* Reads the points into a pooled matrix; exits with a message when FILE is
 * missing or malformed. */
static float **read_points(long *numObjects, long *numAttributes) {
  FILE *f = fopen(filename, binary ? "rb" : "r");
  if (!f) {
    fprintf(stderr, "kmeans: cannot open '%s': %s\n", filename,
            strerror(errno));
    exit(1);
  }
  long n = 0, d = 0;
  float *values = NULL;
  if (binary) {
    int header[2];
    if (fread(header, sizeof header, 1, f) != 1 || header[0] < 1 ||
        header[1] < 1) {
      fprintf(stderr, "kmeans: '%s': bad binary header\n", filename);
      exit(1);
    }
    n = header[0];
    d = header[1];
    values = malloc((size_t)(n * d) * sizeof(float));
    if (!values ||
        fread(values, sizeof(float), (size_t)(n * d), f) != (size_t)(n * d)) {
      fprintf(stderr, "kmeans: '%s': truncated (%ld x %ld floats expected)\n",
              filename, n, d);
      exit(1);
    }
  } else {
    size_t cap = 0, len = 0;
    char *line = NULL;
    ssize_t got;
    long lineNo = 0, capValues = 0;
    while ((got = getline(&line, &cap, f)) != -1) {
      lineNo++;
      char *p = line, *end;
      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '\n' || *p == '\0')
        continue;
      strtod(p, &end); /* the point's id */
      if (end == p)
        goto bad;
      p = end;
      long k = 0;
      for (;;) {
        double v = strtod(p, &end);
        if (end == p)
          break;
        if (len + 1 > (size_t)capValues) {
          capValues = capValues ? capValues * 2 : 1024;
          values = realloc(values, (size_t)capValues * sizeof(float));
          if (!values) {
            fprintf(stderr, "kmeans: out of memory\n");
            exit(1);
          }
        }
        values[len++] = (float)v;
        k++;
        p = end;
      }
      while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
      if (*p != '\0' || k == 0 || (d && k != d))
        goto bad;
      d = k;
      n++;
      continue;
    bad:
      fprintf(stderr, "kmeans: '%s' line %ld: expected \"ID F1 ... F%ld\"\n",
              filename, lineNo, d ? d : 1);
      exit(1);
    }
    free(line);
    if (n == 0) {
      fprintf(stderr, "kmeans: '%s' has no points\n", filename);
      exit(1);
    }
  }
  fclose(f);
  float **features = TM_MALLOC((size_t)n * sizeof(float *));
  float *block = TM_MALLOC((size_t)(n * d) * sizeof(float));
  if (!features || !block) {
    fprintf(stderr, "kmeans: out of memory (PTM_POOL_SIZE?)\n");
    exit(1);
  }
  for (long i = 0; i < n; i++) {
    features[i] = block + i * d;
    for (long j = 0; j < d; j++)
      features[i][j] = values[i * d + j];
  }
  free(values);
  *numObjects = n;
  *numAttributes = d;
  return features;
}

static void normalise(float **features, long n, long d) {
  for (long j = 0; j < d; j++) {
    double sum = 0, sq = 0;
    for (long i = 0; i < n; i++)
      sum += features[i][j];
    double mean = sum / (double)n;
    for (long i = 0; i < n; i++)
      sq += (features[i][j] - mean) * (features[i][j] - mean);
    double sd = sqrt(sq / (double)n);
    for (long i = 0; i < n; i++)
      features[i][j] = (float)(sd > 0 ? (features[i][j] - mean) / sd : 0);
  }
}

/* Converged, and every centre the mean of its points. */
static int check(kmeans_t *k) {
  int ok = 1;
  if (k->delta > k->threshold) {
    fprintf(stderr,
            "kmeans: %ld clusters: no convergence in %d iterations "
            "(delta %g)\n",
            k->numClusters, KMEANS_MAX_LOOPS, k->delta);
    ok = 0;
  }
  long d = k->numAttributes;
  double *sum = calloc((size_t)(k->numClusters * d), sizeof(double));
  long *count = calloc((size_t)k->numClusters, sizeof(long));
  if (!sum || !count)
    return 0;
  for (long i = 0; i < k->numObjects; i++) {
    long c = k->membership[i];
    if (c < 0 || c >= k->numClusters) {
      fprintf(stderr, "kmeans: point %ld in no cluster\n", i);
      return 0;
    }
    count[c]++;
    for (long j = 0; j < d; j++)
      sum[c * d + j] += k->features[i][j];
  }
  for (long c = 0; c < k->numClusters && ok; c++) {
    for (long j = 0; j < d && count[c]; j++) {
      double mean = sum[c * d + j] / (double)count[c];
      if (fabs(k->clusters[c][j] - mean) > 2e-3 * (1 + fabs(mean))) {
        fprintf(stderr,
                "kmeans: cluster %ld feature %ld: centre %g, mean of "
                "its %ld points %g\n",
                c, j, k->clusters[c][j], count[c], mean);
        ok = 0;
        break;
      }
    }
  }
  free(sum);
  free(count);
  return ok;
}

int main(int argc, char **argv) {
  stamp_parse_options(argc, argv, "kmeans", options, usage);
  if (!filename) {
    fprintf(stderr, "kmeans: no input file (-i)\n");
    usage();
  }
  if (minClusters > maxClusters) {
    fprintf(stderr, "kmeans: MIN_CLUSTERS %ld > MAX_CLUSTERS %ld\n",
            minClusters, maxClusters);
    usage();
  }
  TM_STARTUP(numThread);
  thread_startup(numThread);
  long numObjects, numAttributes;
  float **features = read_points(&numObjects, &numAttributes);
  if (maxClusters > numObjects) {
    fprintf(stderr, "kmeans: %ld clusters but only %ld points\n", maxClusters,
            numObjects);
    return 2;
  }
  if (zscore)
    normalise(features, numObjects, numAttributes);
  printf("kmeans: %ld points x %ld features, %ld..%ld clusters, threshold "
         "%g, threads %ld\n",
         numObjects, numAttributes, minClusters, maxClusters, threshold,
         numThread);
  int ok = 1;
  stamp_result_start();
  for (long k = minClusters; k <= maxClusters && ok; k++) {
    kmeans_t *km =
        kmeans_alloc(features, numObjects, numAttributes, k, (float)threshold);
    if (!km) {
      fprintf(stderr, "kmeans: out of memory (PTM_POOL_SIZE?)\n");
      return 1;
    }
    thread_start(kmeans_run, km);
    ok = check(km);
    printf("kmeans: %ld clusters: %ld iterations, delta %g\n", k, km->loops,
           km->delta);
    kmeans_free(km);
  }
  stamp_result_stop();
  thread_shutdown();
  TM_SHUTDOWN();
  return stamp_result_print("kmeans", numThread, ok);
}
