/* The baseline's ptm.h API: see baseline_ptm.h. */
#include "baseline_ptm.h"
#include "volatile_root.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t global_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int depth;
static atomic_ullong commits;

void ptm_baseline_begin(void) {
  if (depth++ == 0)
    pthread_mutex_lock(&global_lock);
}

void ptm_baseline_end(void) {
  if (--depth == 0) {
    /* Counted under the lock: no contention beyond the lock's own. */
    atomic_store_explicit(
        &commits, atomic_load_explicit(&commits, memory_order_relaxed) + 1,
        memory_order_relaxed);
    pthread_mutex_unlock(&global_lock);
  }
}

void *ptm_malloc(size_t size) { return malloc(size); }
void *ptm_calloc(size_t nmemb, size_t size) { return calloc(nmemb, size); }

void *ptm_aligned_alloc(size_t alignment, size_t size) {
  void *p = NULL;
  return posix_memalign(&p, alignment, size) == 0 ? p : NULL;
}

void ptm_free(void *ptr) { free(ptr); }
const char *ptm_algorithm(void) { return "baseline"; }

void ptm_stats(ptm_stats_t *total) {
  memset(total, 0, sizeof *total);
  total->commits = atomic_load(&commits);
}

void ptm_stats_print(FILE *out) {
  fprintf(out ? out : stderr, "baseline: %llu commits (one global lock)\n",
          (unsigned long long)atomic_load(&commits));
}

void *ptm_root(size_t size) { return volatile_root(size); }
