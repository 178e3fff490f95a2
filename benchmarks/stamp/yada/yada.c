/*
 * yada - STAMP's Delaunay mesh refinement application (Minh et al., IISWC
 * 2008; Ruppert's algorithm): threads take bad triangles (an angle below
 * the bound, or encroaching a boundary segment) from a shared work heap and
 * refine each in one transaction (region.h), putting the new bad triangles
 * back on the heap. At the end the mesh is checked (mesh.h).
 *
 *   yada -i PREFIX [-a MIN_ANGLE] [-t THREADS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mesh.h"
#include "options.h"
#include "region.h"
#include "stamp_result.h"
#include "tm.h"

typedef struct worker_args {
  mesh_t *mesh;
  double min_angle;
  long *delta;     /* per thread: change in the number of triangles */
  long *processed; /* per thread: triangles refined */
  int out_of_memory;
} worker_args_t;

static void usage(void) {
  fprintf(stderr,
          "usage: yada -i PREFIX [-a MIN_ANGLE] [-t THREADS]\n"
          "  -i PREFIX     the mesh: PREFIX.node, PREFIX.ele, PREFIX.poly\n"
          "  -a MIN_ANGLE  angle bound in degrees, (0, 30] (default 20)\n"
          "  -t THREADS    worker threads (default 1)\n");
  exit(2);
}

static void process(void *arg) {
  worker_args_t *w = arg;
  mesh_t *m = w->mesh;
  long tid = thread_getId();
  region_t *r = region_alloc(w->min_angle);
  if (!r) {
    w->out_of_memory = 1;
    return;
  }
  long delta_sum = 0, processed = 0;
  for (;;) {
    element_t *e;
    TM_BEGIN();
    e = heap_remove(m->work);
    TM_END();
    if (!e)
      break;
    /* E stays referenced until here, so nobody frees it meanwhile. */
    long delta = 0;
    int refined = 0;
    TM_BEGIN();
    r->num_bad = 0;
    e->referenced = 0;
    if (e->garbage) {
      TM_FREE(e);
    } else {
      delta = region_refine(r, m, e);
      refined = 1;
    }
    TM_END();
    if (!refined)
      continue;
    delta_sum += delta;
    processed++;
    int ok = 1;
    TM_BEGIN();
    for (long i = 0; i < r->num_bad && ok; i++)
      ok = heap_insert(m->work, r->bad[i]);
    TM_END();
    if (!ok) {
      w->out_of_memory = 1;
      break;
    }
  }
  w->delta[tid] = delta_sum;
  w->processed[tid] = processed;
  region_free(r);
}

int main(int argc, char **argv) {
  const char *prefix = NULL;
  double min_angle = 20;
  long threads = 1;
  const stamp_option_t options[] = {
      {'i', STAMP_OPT_STRING, &prefix, 0, 0},
      {'a', STAMP_OPT_DOUBLE, &min_angle, 0, 30},
      {'t', STAMP_OPT_LONG, &threads, 1, STAMP_MAX_THREADS},
      {0, STAMP_OPT_FLAG, NULL, 0, 0}};
  stamp_parse_options(argc, argv, "yada", options, usage);
  if (!(min_angle > 0)) {
    fprintf(stderr, "yada: the angle bound -a must be above 0 degrees\n");
    usage();
  }
  if (!prefix) {
    fprintf(stderr, "yada: no input mesh (-i PREFIX)\n");
    usage();
  }

  printf("Angle constraint = %g\n", min_angle);
  mesh_t *mesh = mesh_read(prefix, min_angle);
  if (!mesh)
    return 1;
  printf("Initial number of mesh elements = %ld triangles, %ld segments\n",
         mesh->num_triangles, mesh->num_segments);
  printf("Initial number of bad elements  = %ld\n", mesh->num_bad);

  worker_args_t w = {.mesh = mesh, .min_angle = min_angle};
  w.delta = calloc((size_t)threads, sizeof(long));
  w.processed = calloc((size_t)threads, sizeof(long));
  if (!w.delta || !w.processed) {
    fprintf(stderr, "yada: out of memory\n");
    return 1;
  }
  stamp_result_run(threads, process, &w);

  long delta = 0, processed = 0;
  for (long t = 0; t < threads; t++) {
    delta += w.delta[t];
    processed += w.processed[t];
  }
  printf("Elapsed time                    = %f seconds\n",
         stamp_result_seconds());
  printf("Number of elements processed    = %ld\n", processed);
  int ok = 1;
  if (w.out_of_memory) {
    fprintf(stderr, "yada: out of memory while refining\n");
    ok = 0;
  }
  if (heap_getSize(mesh->work) != 0) {
    fprintf(stderr, "yada: check failed: %ld elements left on the work heap\n",
            heap_getSize(mesh->work));
    ok = 0;
  }
  if (!mesh_check(mesh, min_angle, mesh->num_triangles + delta))
    ok = 0;
  free(w.delta);
  free(w.processed);
  return stamp_result_print("yada", threads, ok);
}
