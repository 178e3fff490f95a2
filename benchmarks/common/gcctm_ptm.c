/* The GCC TM peer's ptm.h API: see gcctm_ptm.h. */
#include "gcctm_ptm.h"
#include "volatile_root.h"

#include <stdatomic.h>
#include <string.h>

#define MAX_SLOTS 1024

/* Per-thread commit counters, one cache line each. */
static struct {
  _Alignas(64) atomic_ullong commits;
} slots[MAX_SLOTS];
static atomic_int next_slot;
static _Thread_local int my_slot = -1;

void ptm_gcctm_committed(void) {
  if (my_slot < 0)
    my_slot = atomic_fetch_add(&next_slot, 1) % MAX_SLOTS;
  atomic_fetch_add_explicit(&slots[my_slot].commits, 1, memory_order_relaxed);
}

void *ptm_aligned_alloc(size_t alignment, size_t size) {
  void *p = NULL;
  return posix_memalign(&p, alignment, size) == 0 ? p : NULL;
}

const char *ptm_algorithm(void) { return "gcctm"; }

void ptm_stats(ptm_stats_t *total) {
  memset(total, 0, sizeof *total);
  for (int i = 0; i < MAX_SLOTS; i++)
    total->commits += atomic_load(&slots[i].commits);
}

void ptm_stats_print(FILE *out) {
  ptm_stats_t s;
  ptm_stats(&s);
  fprintf(out ? out : stderr, "gcctm: %llu commits (libitm)\n",
          (unsigned long long)s.commits);
}

void *ptm_root(size_t size) { return volatile_root(size); }
