/*
 * tm.h - the STAMP distribution's TM macro interface (its lib/tm.h) mapped
 * onto ptm, the way a compiler-instrumented TM needs it: a transaction is
 * PTM_BEGIN()/PTM_END(), shared accesses are plain loads and stores (the
 * plugin instruments everything between the markers and every function
 * called from there), so the TM_SHARED_READ/WRITE barriers become plain
 * accesses and the per-transaction argument (TM_ARG...) disappears.
 *
 * Memory, as STAMP defines the macros: TM_MALLOC/TM_FREE are the TM's heap,
 * ptm_malloc/ptm_free: the persistent pool with a persistent library
 * (transactional inside a transaction, so an aborted attempt's allocations
 * are released; an allocation of its own outside one), the volatile heap
 * with an STM library, plain malloc/free in the baseline build. The shared
 * data of our ports comes from it, also when the sequential phase builds
 * it. P_MALLOC/P_FREE ("memory inside the parallel region": a thread's
 * private data, such as labyrinth's grid copy) and SEQ_MALLOC/SEQ_FREE are
 * the ordinary heap: nothing about them is made durable (docs/stamp.md).
 *
 * Built with -DPTM_BASELINE (no plugin), the API comes from
 * benchmarks/common/baseline_ptm.h: one global lock, no persistence.
 *
 * Note for ported STAMP code: PTM_BEGIN() opens a C block that PTM_END()
 * closes, so a variable declared between TM_BEGIN() and TM_END() is not
 * visible after TM_END(), and a transaction must be left through TM_END()
 * (no return/break/goto out of it: the plugin reports those).
 * See docs/stamp.md.
 */
#ifndef STAMP_TM_H
#define STAMP_TM_H

#if defined(PTM_BASELINE)
#include "baseline_ptm.h"
#include <stdio.h>
#include <stdlib.h>
#define PTM_SAFE
#define PTM_PURE
/* One global lock never conflicts: a restart is a bug of the program. */
#define ptm_restart()                                                          \
  (fprintf(stderr, "TM_RESTART in the baseline build\n"), abort())
#else
#include <ptm.h>
#endif

#include <stdlib.h>

#include "thread.h"

/* Simulator hooks of the original distribution: nothing to do here. */
#define MAIN(argc, argv) int main(int argc, char **argv)
#define MAIN_RETURN(val) return val
#define GOTO_SIM()  /* nothing */
#define GOTO_REAL() /* nothing */
#define IS_IN_SIM() (0)
#define SIM_GET_NUM_CPU(var) /* nothing */
#define TM_PRINTF printf
#define TM_PRINT0 printf
#define TM_PRINT1 printf
#define TM_PRINT2 printf
#define TM_PRINT3 printf
#define P_MEMORY_STARTUP(numThread) /* nothing */
#define P_MEMORY_SHUTDOWN()         /* nothing */

/* Runtime set-up: the pool opens on first use (PTM_POOL, PTM_POOL_SIZE). */
#define TM_STARTUP(numThread) /* nothing */
#define TM_SHUTDOWN()         /* nothing */
#define TM_THREAD_ENTER()     /* nothing */
#define TM_THREAD_EXIT()      /* nothing */
#define TM_IFPROC0 if (thread_getId() == 0)

/* No transaction descriptor is passed around: the plugin finds it. */
#define TM_ARG           /* nothing */
#define TM_ARG_ALONE     /* nothing */
#define TM_ARGDECL       /* nothing */
#define TM_ARGDECL_ALONE /* nothing */

/* Functions callable inside transactions get a transactional clone anyway;
 * TM_CALLABLE makes sure one exists even when no transaction of their own
 * unit reaches them. TM_PURE functions run uninstrumented. */
#define TM_CALLABLE PTM_SAFE
#define TM_SAFE PTM_SAFE
#define TM_PURE PTM_PURE

/* Indirect calls need nothing either: the clone is looked up. */
#define TM_IFUNC_DECL /* nothing */
#define TM_IFUNC_CALL1(r, f, a1) r = f(a1)
#define TM_IFUNC_CALL2(r, f, a1, a2) r = f((a1), (a2))

/* Memory. */
#define SEQ_MALLOC(size) malloc(size)
#define SEQ_FREE(ptr) free(ptr)
#define P_MALLOC(size) malloc(size)
#define P_FREE(ptr) free(ptr)
#define TM_MALLOC(size) ptm_malloc(size)
#define TM_FREE(ptr) ptm_free(ptr)

/* Transactions. */
#define TM_BEGIN() PTM_BEGIN()
#define TM_BEGIN_RO() PTM_BEGIN()
#define TM_END() PTM_END()
#define TM_RESTART() ptm_restart()
#define TM_EARLY_RELEASE(var) /* nothing */

/* Accesses: plain; the plugin instruments them inside transactions. */
#define TM_SHARED_READ(var) (var)
#define TM_SHARED_READ_P(var) (var)
#define TM_SHARED_READ_F(var) (var)
#define TM_SHARED_WRITE(var, val) ((var) = (val))
#define TM_SHARED_WRITE_P(var, val) ((var) = (val))
#define TM_SHARED_WRITE_F(var, val) ((var) = (val))
#define TM_LOCAL_WRITE(var, val) ((var) = (val))
#define TM_LOCAL_WRITE_P(var, val) ((var) = (val))
#define TM_LOCAL_WRITE_F(var, val) ((var) = (val))

#endif /* STAMP_TM_H */
