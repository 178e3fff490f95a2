/*
 * interop.h - the modes of the interop test program (test/interop): each
 * lives in its own source file, checks its own results (e2e_check.h) and
 * returns its number of failed checks.
 */
#ifndef PTM_INTEROP_H
#define PTM_INTEROP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Pool blocks released outside transactions (pool_free.c). */
int interop_free(const char *pool);
/* C++ delete of pool objects outside transactions (pool_delete.cpp). */
int interop_delete(void);
/* One source against every library: ptm_open/ptm_root/ptm_malloc
 * (one_source.c). */
int interop_one_source(const char *pool);

#ifdef __cplusplus
}
#endif

#endif /* PTM_INTEROP_H */
