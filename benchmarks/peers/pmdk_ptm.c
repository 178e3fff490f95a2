/* The PMDK peers' pool and statistics: see pmdk_ptm.h. */
#include "pmdk_ptm.h"

#include <errno.h>
#include <libgen.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SLOTS 1024

/* Per-thread counters, one cache line each. */
static struct {
  _Alignas(64) atomic_ullong commits;
  atomic_ullong aborts;
} slots[MAX_SLOTS];
static atomic_int next_slot;
static _Thread_local int my_slot = -1;

static int slot(void) {
  if (my_slot < 0)
    my_slot = atomic_fetch_add(&next_slot, 1) % MAX_SLOTS;
  return my_slot;
}

void pmdk_committed(void) {
  atomic_fetch_add_explicit(&slots[slot()].commits, 1, memory_order_relaxed);
}

void pmdk_aborted(void) {
  atomic_fetch_add_explicit(&slots[slot()].aborts, 1, memory_order_relaxed);
}

const char *ptm_algorithm(void) { return "pmdk"; }

void ptm_stats(ptm_stats_t *total) {
  memset(total, 0, sizeof *total);
  for (int i = 0; i < MAX_SLOTS; i++) {
    total->commits += atomic_load(&slots[i].commits);
    total->aborts += atomic_load(&slots[i].aborts);
  }
}

void pmdk_out_of_memory(const char *name) {
  fprintf(stderr,
          "%s: a libpmemobj transaction failed: %s (pool full: raise "
          "PTM_POOL_SIZE or shorten the run)\n",
          name, pmemobj_errormsg());
  exit(1);
}

/* PTM_POOL_SIZE: bytes with an optional K, M or G suffix. */
static size_t pool_size(const char *name) {
  const char *s = getenv("PTM_POOL_SIZE");
  if (!s || !*s)
    return (size_t)1 << 30;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  int shift = 0;
  if (*end == 'K' || *end == 'k')
    shift = 10, end++;
  else if (*end == 'M' || *end == 'm')
    shift = 20, end++;
  else if (*end == 'G' || *end == 'g')
    shift = 30, end++;
  if (errno || end == s || *end || v == 0 || v > (1ULL << (62 - shift))) {
    fprintf(stderr, "%s: bad PTM_POOL_SIZE '%s' (bytes, or with K, M, G)\n",
            name, s);
    exit(2);
  }
  size_t size = (size_t)(v << shift);
  if (size < PMEMOBJ_MIN_POOL)
    size = PMEMOBJ_MIN_POOL;
  return size;
}

PMEMobjpool *pmdk_open_pool(const char *name, const char *layout, char **argv) {
  if (!getenv("PMEM_IS_PMEM_FORCE")) {
    setenv("PMEM_IS_PMEM_FORCE", "1", 1);
    execv("/proc/self/exe", argv);
    fprintf(stderr, "%s: cannot re-execute with PMEM_IS_PMEM_FORCE=1: %s\n",
            name, strerror(errno));
    exit(1);
  }
  char dir[4096];
  const char *pool = getenv("PTM_POOL");
  if (pool && *pool) {
    snprintf(dir, sizeof dir, "%s", pool);
    snprintf(dir, sizeof dir, "%s", dirname(dir));
  } else {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s", tmp && *tmp ? tmp : "/tmp");
  }
  char path[4200];
  snprintf(path, sizeof path, "%s/%s-pmdk-XXXXXX", dir, name);
  int fd = mkstemp(path);
  if (fd < 0) {
    fprintf(stderr, "%s: cannot create a pool file in %s: %s\n", name, dir,
            strerror(errno));
    exit(1);
  }
  close(fd);
  unlink(path);
  PMEMobjpool *pop = pmemobj_create(path, layout, pool_size(name), 0600);
  if (!pop) {
    fprintf(stderr, "%s: pmemobj_create %s: %s\n", name, path,
            pmemobj_errormsg());
    exit(1);
  }
  unlink(path);
  return pop;
}
