/*
 * ptm_abi.h - the interface between code instrumented by the ptm plugin and a
 * ptm runtime library. Every library in Makefile.libnames defines all of these
 * symbols. The plugin (plugin/RuntimeCallbacks.cpp) declares them with the
 * same signatures; docs/ABI.md describes when each is emitted.
 *
 * Users do not call these directly, except through the macros of ptm.h.
 */
#ifndef PTM_ABI_H
#define PTM_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PTM_ABI_VERSION 3

/* Runtime entry points never throw: an abort leaves through longjmp. */
#if defined(__cplusplus)
#define PTM_NOTHROW noexcept
#else
#define PTM_NOTHROW __attribute__((nothrow))
#endif

/* ---- Region markers (what PTM_BEGIN/PTM_END expand to) ----------------------
 * The plugin replaces them: an outermost begin becomes checkpoint + begin, an
 * end becomes commit, nested markers disappear. Compiled without the plugin,
 * they start/commit an irrevocable (uninstrumented) transaction. */
void __ptm_region_begin(void) PTM_NOTHROW;
void __ptm_region_end(void) PTM_NOTHROW;
/* Dynamic nesting depth of the calling thread (0 outside transactions). */
int __ptm_region_depth(void) PTM_NOTHROW;
/* Called when a region's scope is left by a C++ exception with the depth the
 * region started at: rolls the transaction back if the depth is 0. */
void __ptm_region_unwind(int depth_at_begin) PTM_NOTHROW;

/* ---- Transaction boundaries (emitted by the plugin) -------------------------
 *   buf = __ptm_tx_checkpoint();   buffer to save the context in
 *   __ptm_setjmp(buf);             returns again (non-zero) after an abort
 *   __ptm_tx_begin(where);         starts (or joins) the transaction
 *   ... body ...
 *   if (__ptm_tx_commit() != 0) goto restart;   (the "retry edge")
 * A nested begin returns a scratch buffer and only counts depth.
 *
 * __ptm_tx_commit returns 0 once the transaction committed (or, nested, once
 * the depth was decremented). A non-zero result means the attempt was rolled
 * back at commit time (memory and allocations restored, depth
 * 0) and must re-execute: the plugin branches back to the point after
 * __ptm_setjmp. Aborts elsewhere resume the checkpoint (a longjmp). The retry
 * edge also keeps every value the region uses live across it, which is what
 * makes re-execution after a longjmp see the values of the region's start. */
void *__ptm_tx_checkpoint(void);
/* Saves the caller's context in BUF (callee-saved registers, stack pointer,
 * return address: glibc's _setjmp without pointer mangling or the signal-mask
 * word); returns 0, and non-zero when an abort resumes there. A buffer that
 * glibc's _setjmp filled (an object from ABI version 2) resumes too. */
__attribute__((returns_twice)) int __ptm_setjmp(void *buf) PTM_NOTHROW;
void __ptm_tx_begin(const char *where);
int __ptm_tx_commit(void);

/* ---- Barriers, indexed by access size --------------------------------------
 */
uint8_t __ptm_read_1(const void *addr);
uint16_t __ptm_read_2(const void *addr);
uint32_t __ptm_read_4(const void *addr);
uint64_t __ptm_read_8(const void *addr);
void __ptm_write_1(void *addr, uint8_t val);
void __ptm_write_2(void *addr, uint16_t val);
void __ptm_write_4(void *addr, uint32_t val);
void __ptm_write_8(void *addr, uint64_t val);
/* Any other size or type (x86_fp80, vectors, aggregates, i128, odd widths):
 * copies N bytes between transactional memory and a private buffer. */
void __ptm_read_n(void *private_dst, const void *addr, size_t n);
void __ptm_write_n(void *addr, const void *private_src, size_t n);

/* ---- Memory intrinsics with both sides transactional ------------------------
 * (a private side makes the plugin use __ptm_read_n / __ptm_write_n) */
void __ptm_memcpy(void *dst, const void *src, size_t n);
void __ptm_memmove(void *dst, const void *src, size_t n);
void __ptm_memset(void *dst, int c, size_t n);

/* ---- libc functions inside transactions
 * -------------------------------------- A call to NAME inside a transaction
 * becomes a call to __ptm_NAME. */
void *__ptm_memchr(const void *s, int c, size_t n);
int __ptm_memcmp(const void *a, const void *b, size_t n);
size_t __ptm_strlen(const char *s);
size_t __ptm_strnlen(const char *s, size_t max);
int __ptm_strcmp(const char *a, const char *b);
int __ptm_strncmp(const char *a, const char *b, size_t n);
char *__ptm_strcpy(char *dst, const char *src);
char *__ptm_strncpy(char *dst, const char *src, size_t n);
char *__ptm_stpcpy(char *dst, const char *src);
char *__ptm_strcat(char *dst, const char *src);
char *__ptm_strncat(char *dst, const char *src, size_t n);
char *__ptm_strchr(const char *s, int c);
char *__ptm_strrchr(const char *s, int c);
char *__ptm_strstr(const char *hay, const char *needle);
size_t __ptm_strspn(const char *s, const char *accept);
size_t __ptm_strcspn(const char *s, const char *reject);
char *__ptm_strpbrk(const char *s, const char *accept);
char *__ptm_strdup(const char *s);
char *__ptm_strndup(const char *s, size_t n);
void *__ptm_memrchr(const void *s, int c, size_t n);
char *__ptm_strtok_r(char *s, const char *delim, char **save);
/* State and results through the barriers; strings read into private copies
 * (the end pointer maps back into the original string). Also __ptm_strtoq,
 * __ptm_strtouq, __ptm___isoc23_strto{l,ul,ll,ull} and
 * __ptm___strto{l,ul,ll,ull,d}_internal, with libc's signatures. */
int __ptm_rand_r(unsigned *seed);
long __ptm_strtol(const char *s, char **end, int base);
unsigned long __ptm_strtoul(const char *s, char **end, int base);
long long __ptm_strtoll(const char *s, char **end, int base);
unsigned long long __ptm_strtoull(const char *s, char **end, int base);
double __ptm_strtod(const char *s, char **end);
float __ptm_strtof(const char *s, char **end);
int __ptm_atoi(const char *s);
long __ptm_atol(const char *s);
long long __ptm_atoll(const char *s);
double __ptm_atof(const char *s);
/* The comparator's registered clone is called: on the elements of a private
 * copy (qsort, qsort_r) or on the array itself (bsearch). */
void __ptm_qsort(void *base, size_t n, size_t size,
                 int (*cmp)(const void *, const void *));
void *__ptm_bsearch(const void *key, const void *base, size_t n, size_t size,
                    int (*cmp)(const void *, const void *));
/* modf, frexp, remquo, sincos (and their f/l forms): the pointer result is
 * stored through the barriers. */
double __ptm_modf(double x, double *iptr);
double __ptm_frexp(double x, int *exp);
/* Formatting: %s arguments and the format are read through the barriers,
 * the text written through them; %n, %ls and positional arguments stop the
 * program. Also __ptm_sprintf, __ptm_vsprintf and the _chk forms
 * (__ptm___snprintf_chk, ...). */
int __ptm_snprintf(char *dst, size_t size, const char *fmt, ...);
/* _FORTIFY_SOURCE's __memcpy_chk, __memmove_chk, __memset_chk, __strcpy_chk,
 * __stpcpy_chk, __strcat_chk, __strncpy_chk, __strncat_chk: __ptm_<name>,
 * glibc's object-size check, then the transactional version. */

/* ---- Allocation inside transactions
 * ------------------------------------------ An abort frees what the attempt
 * allocated; a free takes effect at commit. */
void *__ptm_tx_malloc(size_t size);
void *__ptm_tx_calloc(size_t nmemb, size_t size);
void *__ptm_tx_realloc(void *ptr, size_t size);
void *__ptm_tx_aligned_alloc(size_t alignment, size_t size);
int __ptm_tx_posix_memalign(void **memptr, size_t alignment, size_t size);
void __ptm_tx_free(void *ptr);
/* __cxa_allocate_exception inside a transaction: the exception object is
 * written in place and survives a rollback (the exception leaves with it). */
void *__ptm_tx_allocate_exception(size_t size) PTM_NOTHROW;
/* C++ operator new/delete (new throws std::bad_alloc on failure). */
void *__ptm_tx_new(size_t size);
void *__ptm_tx_new_nothrow(size_t size);
void *__ptm_tx_new_aligned(size_t size, size_t alignment);
void *__ptm_tx_new_aligned_nothrow(size_t size, size_t alignment);
void __ptm_tx_delete(void *ptr);

/* ---- Clones
 * -------------------------------------------------------------------- Every
 * unit compiled by the plugin registers (original, clone) pairs from a
 * constructor. Indirect calls and calls into other units go through
 * __ptm_clone_lookup; the library decides what happens when no clone exists
 * (WHERE names the call site): report and exit, or run it irrevocably. */
typedef struct ptm_clone_entry {
  const void *original;
  const void *clone;
} ptm_clone_entry_t;
void __ptm_register_clones(const ptm_clone_entry_t *table, size_t n);
void *__ptm_clone_lookup(const void *fn, const char *where);

/* ---- Unsupported constructs
 * ---------------------------------------------------- Emitted just before a
 * construct the plugin cannot make transactional (WHAT names it, WHERE is
 * file:line or the function). The library reports it and either exits or makes
 * the transaction irrevocable. */
enum ptm_unsupported_kind {
  PTM_UNSUPPORTED_INLINE_ASM = 1,
  PTM_UNSUPPORTED_CALL = 2,       /* external callee with no clone         */
  PTM_UNSUPPORTED_SETJMP = 3,     /* setjmp/longjmp family                  */
  PTM_UNSUPPORTED_INTRINSIC = 4,  /* memory intrinsic the plugin can't map  */
  PTM_UNSUPPORTED_IRREVOCABLE = 5 /* I/O and other irrevocable libc calls  */
};
void __ptm_unsupported(int kind, const char *what, const char *where);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PTM_ABI_H */
