/*
 * ptm_testrt.h - the test runtime (libptm_testrt): the cgl algorithm plus
 * counters of every ABI call and abort injection, so tests can prove that a
 * transaction re-executed and that allocations were rolled back. Counters are
 * process-wide (all threads).
 *
 * Abort injection: with a sweep of N (PTM_TEST_ABORT_SWEEP=N in the
 * environment, or ptm_test_set_abort_sweep(N)), attempt a (1-based) of every
 * transaction aborts at its (a*N)-th barrier, where a barrier is any read,
 * write, memory intrinsic, libc or allocation call. So a transaction with B
 * barriers aborts at barriers N, 2N, ... in successive attempts and commits in
 * attempt B/N + 1. Irrevocable transactions are never injected. 0 disables.
 *
 * Commit-time retries: with K (PTM_TEST_COMMIT_RETRY=K, or
 * ptm_test_set_commit_retry(K)), the first K attempts of every transaction
 * fail at commit: they are rolled back and __ptm_tx_commit returns non-zero,
 * so the code re-executes through the plugin's retry edge (a branch), not
 * through longjmp. Both injections may be combined. 0 disables.
 */
#ifndef PTM_TESTRT_H
#define PTM_TESTRT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Index of reads[] and writes[]: access sizes 1, 2, 4, 8 and n (any other). */
enum {
  PTM_TEST_SIZE_1,
  PTM_TEST_SIZE_2,
  PTM_TEST_SIZE_4,
  PTM_TEST_SIZE_8,
  PTM_TEST_SIZE_N,
  PTM_TEST_SIZES
};

/* Index of libc[]: one per __ptm_<libc> entry point. */
enum {
  PTM_TEST_MEMCHR,
  PTM_TEST_MEMCMP,
  PTM_TEST_STRLEN,
  PTM_TEST_STRNLEN,
  PTM_TEST_STRCMP,
  PTM_TEST_STRNCMP,
  PTM_TEST_STRCPY,
  PTM_TEST_STRNCPY,
  PTM_TEST_STPCPY,
  PTM_TEST_STRCAT,
  PTM_TEST_STRNCAT,
  PTM_TEST_STRCHR,
  PTM_TEST_STRRCHR,
  PTM_TEST_STRSTR,
  PTM_TEST_STRSPN,
  PTM_TEST_STRCSPN,
  PTM_TEST_STRPBRK,
  PTM_TEST_STRDUP,
  PTM_TEST_STRNDUP,
  PTM_TEST_MEMRCHR,
  PTM_TEST_STRTOK_R,
  PTM_TEST_RAND_R,
  PTM_TEST_STRTO, /* strto*, ato*                     */
  PTM_TEST_QSORT, /* qsort, qsort_r                   */
  PTM_TEST_BSEARCH,
  PTM_TEST_PRINTF,   /* snprintf, sprintf, v and _chk   */
  PTM_TEST_MATH,     /* modf, frexp, remquo, sincos      */
  PTM_TEST_CXX_TREE, /* libstdc++ red-black tree nodes */
  PTM_TEST_CXX_LIST, /* libstdc++ list nodes           */
  PTM_TEST_CXX_HASH, /* rehash policy, _Hash_bytes     */
  PTM_TEST_LIBC_FUNCS
};

struct ptm_test_counts {
  /* Transactions. */
  uint64_t begins;           /* outermost begins (one per attempt)         */
  uint64_t nested_begins;    /* __ptm_tx_begin inside a transaction        */
  uint64_t commits;          /* outermost commits                          */
  uint64_t aborts;           /* attempts rolled back to re-execute         */
  uint64_t injected_aborts;  /* ... of which injected by the sweep         */
  uint64_t injected_retries; /* ... of which commit-time retries injected  */
  uint64_t restarts;         /* ptm_restart calls                          */
  uint64_t unwind_rollbacks; /* exceptions that rolled a transaction back  */
  uint64_t unwind_commits;   /* ... that left an irrevocable one (kept)    */
  uint64_t region_begins;    /* __ptm_region_begin (no plugin)             */
  uint64_t region_ends;      /* __ptm_region_end                           */
  uint64_t irrevocable;      /* transactions that became irrevocable       */
  /* Barriers. */
  uint64_t barriers; /* all barrier calls (injection points)       */
  uint64_t reads[PTM_TEST_SIZES];
  uint64_t writes[PTM_TEST_SIZES];
  uint64_t memcpy, memmove, memset;
  uint64_t libc[PTM_TEST_LIBC_FUNCS];
  uint64_t libc_total; /* sum of libc[]                              */
  /* Allocation. */
  uint64_t alloc_calls;        /* allocation entry points called in a tx     */
  uint64_t free_calls;         /* free/delete entry points called in a tx    */
  uint64_t tx_allocs;          /* blocks allocated transactionally           */
  uint64_t tx_frees;           /* frees deferred to commit                   */
  uint64_t rolled_back_allocs; /* blocks freed because an attempt aborted */
  uint64_t applied_frees;      /* deferred frees done at commit              */
  uint64_t live_tx_allocs;     /* transactionally allocated blocks not yet
                                  freed by a rollback or a committed free    */
  /* Clones and unsupported constructs. */
  uint64_t clone_registrations; /* pairs passed to __ptm_register_clones  */
  uint64_t clone_lookups;
  uint64_t clone_misses;
  uint64_t unsupported[6]; /* by enum ptm_unsupported_kind (0: unknown)  */
};

/* The counters (updated live; read them when the threads are quiet). */
const struct ptm_test_counts *ptm_test_counts(void);
/* Zeroes every counter (and forgets the live allocations). */
void ptm_test_reset(void);
/* Sets the abort sweep N (0: no injection). */
void ptm_test_set_abort_sweep(unsigned n);
unsigned ptm_test_abort_sweep(void);
/* Sets the number K of commit-time retries per transaction (0: none). */
void ptm_test_set_commit_retry(unsigned k);
unsigned ptm_test_commit_retry(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PTM_TESTRT_H */
