/* kmeans' parallel clustering: see cluster.h. */
#include "cluster.h"

#include <float.h>

#include "tm.h"

static float **alloc_matrix(long rows, long cols) {
  float **m = TM_MALLOC((size_t)rows * sizeof(float *));
  float *block = TM_MALLOC((size_t)(rows * cols) * sizeof(float));
  if (!m || !block)
    return NULL;
  for (long i = 0; i < rows; i++)
    m[i] = block + i * cols;
  return m;
}

static void free_matrix(float **m) {
  TM_FREE(m[0]);
  TM_FREE(m);
}

kmeans_t *kmeans_alloc(float **features, long numObjects, long numAttributes,
                       long numClusters, float threshold) {
  kmeans_t *k = TM_MALLOC(sizeof *k);
  if (!k)
    return NULL;
  k->numObjects = numObjects;
  k->numAttributes = numAttributes;
  k->numClusters = numClusters;
  k->threshold = threshold;
  k->features = features;
  k->membership = TM_MALLOC((size_t)numObjects * sizeof(long));
  k->clusters = alloc_matrix(numClusters, numAttributes);
  k->newCenters = alloc_matrix(numClusters, numAttributes);
  k->newCentersLen = TM_MALLOC((size_t)numClusters * sizeof(long));
  if (!k->membership || !k->clusters || !k->newCenters || !k->newCentersLen)
    return NULL;
  for (long i = 0; i < numObjects; i++)
    k->membership[i] = -1;
  for (long c = 0; c < numClusters; c++) {
    for (long j = 0; j < numAttributes; j++) {
      k->clusters[c][j] = features[c][j];
      k->newCenters[c][j] = 0;
    }
    k->newCentersLen[c] = 0;
  }
  k->globalIndex = 0;
  k->globalDelta = 0;
  k->loops = 0;
  k->delta = 0;
  return k;
}

void kmeans_free(kmeans_t *k) {
  TM_FREE(k->membership);
  free_matrix(k->clusters);
  free_matrix(k->newCenters);
  TM_FREE(k->newCentersLen);
  TM_FREE(k);
}

/* The centre nearest to POINT (squared Euclidean distance). */
static long nearest(kmeans_t *k, const float *point) {
  long best = 0;
  float bestDist = FLT_MAX;
  for (long c = 0; c < k->numClusters; c++) {
    float d = 0;
    for (long j = 0; j < k->numAttributes; j++) {
      float x = point[j] - k->clusters[c][j];
      d += x * x;
    }
    if (d < bestDist) {
      bestDist = d;
      best = c;
    }
  }
  return best;
}

/* One iteration's share of this thread. */
static void assign(kmeans_t *k) {
  long delta = 0;
  for (;;) {
    long start;
    TM_BEGIN();
    start = k->globalIndex;
    k->globalIndex = start + KMEANS_CHUNK;
    TM_END();
    if (start >= k->numObjects)
      break;
    long stop = start + KMEANS_CHUNK < k->numObjects ? start + KMEANS_CHUNK
                                                     : k->numObjects;
    for (long i = start; i < stop; i++) {
      long index = nearest(k, k->features[i]);
      /* Only this thread handles point i in this iteration. */
      if (k->membership[i] != index)
        delta++;
      k->membership[i] = index;
      TM_BEGIN();
      k->newCentersLen[index]++;
      for (long j = 0; j < k->numAttributes; j++)
        k->newCenters[index][j] += k->features[i][j];
      TM_END();
    }
  }
  TM_BEGIN();
  k->globalDelta += delta;
  TM_END();
}

/* Thread 0 between barriers: the new centres, and whether to go on. */
static int update(kmeans_t *k) {
  for (long c = 0; c < k->numClusters; c++) {
    long n = k->newCentersLen[c];
    for (long j = 0; j < k->numAttributes; j++) {
      if (n > 0)
        k->clusters[c][j] = k->newCenters[c][j] / (float)n;
      k->newCenters[c][j] = 0;
    }
    k->newCentersLen[c] = 0;
  }
  k->delta = (float)k->globalDelta / (float)k->numObjects;
  k->globalDelta = 0;
  k->globalIndex = 0;
  k->loops++;
  return k->delta > k->threshold && k->loops < KMEANS_MAX_LOOPS;
}

static int go_on;

void kmeans_run(void *arg) {
  kmeans_t *k = arg;
  do {
    assign(k);
    thread_barrier_wait();
    if (thread_getId() == 0)
      go_on = update(k);
    thread_barrier_wait();
  } while (go_on);
}
