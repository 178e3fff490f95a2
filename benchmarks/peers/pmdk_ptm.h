/*
 * pmdk_ptm.h - what the PMDK peers (bench/<bench>.pmdk) need from the ptm.h
 * API to use the shared driver (bench.h): the statistics of the RESULT line
 * and the pool. The peers themselves are written against libpmemobj as a
 * PMDK user writes them (TX_BEGIN / TX_ADD / TX_NEW / TX_FREE, TOID, locks
 * in the pool), not through PTM_BEGIN/PTM_END.
 *
 * commits counts the operations completed (one libpmemobj transaction each
 * for updates; lookups and range queries run under a pool lock without a
 * transaction, as a PMDK user writes them), aborts the transactions that
 * aborted. libpmemobj exposes no clwb/sfence counts: the RESULT line says
 * clwb_per_tx=na sfence_per_tx=na.
 */
#ifndef PTM_PMDK_PTM_H
#define PTM_PMDK_PTM_H

#include <libpmemobj.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ptm_stats {
  uint64_t commits;
  uint64_t aborts;
  uint64_t clwb;
  uint64_t sfence;
} ptm_stats_t;

/* The driver's set worker (set_worker.h) brackets every operation with
 * these; a PMDK operation runs its own transaction (or lock) inside. */
#define PTM_BEGIN() {
#define PTM_END()                                                              \
  }                                                                            \
  do {                                                                         \
  } while (0)

/* Opens the peer's pool: first, unless PMEM_IS_PMEM_FORCE is set, sets it
 * to 1 and re-executes the program (libpmem reads it when it loads), so that
 * libpmemobj flushes with clwb/sfence like the ptm runtime instead of msync
 * on a non-DAX file. Then creates a fresh pool of PTM_POOL_SIZE bytes
 * (default 1G) in PTM_POOL's directory, or $TMPDIR (default /tmp) when
 * PTM_POOL is unset, and removes its name at once (the mapping stays).
 * Exits with a message on failure. */
PMEMobjpool *pmdk_open_pool(const char *name, const char *layout, char **argv);

void pmdk_committed(void);
void pmdk_aborted(void);

/* A libpmemobj transaction failed for lack of pool space: message, exit. */
void pmdk_out_of_memory(const char *name);

const char *ptm_algorithm(void);
void ptm_stats(ptm_stats_t *total);

#endif /* PTM_PMDK_PTM_H */
