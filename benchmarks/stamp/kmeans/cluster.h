/*
 * cluster.h - kmeans' parallel clustering step (STAMP's normal_exec): every
 * iteration each thread claims chunks of points from a shared index (one
 * transaction per chunk), assigns each point to its nearest centre (outside
 * transactions: the centres are read-only then) and adds the point to its
 * new cluster's running sums (one transaction per point); the changed
 * memberships are added to a shared delta (one transaction per thread).
 * Thread 0 then computes the new centres. Iterations stop when the fraction
 * of points that changed cluster is at most the threshold (or after
 * KMEANS_MAX_LOOPS).
 */
#ifndef KMEANS_CLUSTER_H
#define KMEANS_CLUSTER_H

#define KMEANS_MAX_LOOPS 500
#define KMEANS_CHUNK 3 /* points claimed per transaction */

typedef struct kmeans {
  long numObjects, numAttributes, numClusters;
  float threshold;
  float **features; /* [numObjects][numAttributes], read-only */
  long *membership; /* [numObjects]: cluster of each point */
  float **clusters; /* [numClusters][numAttributes]: centres */
  /* Shared, updated in transactions: */
  long *newCentersLen; /* [numClusters] */
  float **newCenters;  /* [numClusters][numAttributes] */
  long globalIndex;    /* next unclaimed point */
  long globalDelta;    /* points that changed cluster */
  /* Results: */
  long loops;
  float delta; /* fraction changed in the last iteration */
} kmeans_t;

/* Allocates the shared state for K clusters (centres: the first K points). */
kmeans_t *kmeans_alloc(float **features, long numObjects, long numAttributes,
                       long numClusters, float threshold);
void kmeans_free(kmeans_t *k);
/* thread_start() body. */
void kmeans_run(void *arg);

#endif /* KMEANS_CLUSTER_H */
