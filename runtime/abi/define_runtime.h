//===- define_runtime.h - the extern "C" symbols of one library -*- C++ -*-===//
//
// PTM_DEFINE_RUNTIME(POLICY), used once per library (libs/<name>.cpp),
// defines every symbol of ptm_abi.h and the transaction and pool API of
// ptm.h as calls into Runtime<POLICY> (abi_glue.h) and POLICY::Pool. The
// symbols are ordinary functions; the barriers (__ptm_read_N, __ptm_write_N,
// N = 1, 2, 4, 8, n) are also always_inline: under LTO every call of one is
// replaced by its fast path, whatever the inliner's cost model thinks of the
// caller (it left them out of line in cold callers, and everywhere when the
// fast path was large), and scripts/check_inlined_barriers.py checks that no
// call is left in the benchmarks. The shared library keeps them as symbols.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_DEFINE_RUNTIME_H
#define PTM_RUNTIME_ABI_DEFINE_RUNTIME_H

#ifndef PTM_LIBNAME
#error "PTM_LIBNAME names the library (set by ptm_add_runtime_library)"
#endif

#include "runtime/abi/define_stdcxx.h"

// An exported function that every call under LTO inlines (not `inline`: the
// symbol is still defined for the shared library and for non-LTO callers).
#define PTM_ABI_INLINE __attribute__((always_inline))

// Defines every symbol of ptm_abi.h and the transaction API of ptm.h from
// policy POLICY. Use once per library.
#define PTM_DEFINE_RUNTIME(POLICY)                                             \
  using PtmRuntime = ::ptm::Runtime<POLICY>;                                   \
  using PtmEvent = ::ptm::Event;                                               \
  using PtmTxHeap = POLICY::TxHeap;                                            \
  using PtmPool = POLICY::Pool;                                                \
  extern "C" {                                                                 \
  const char *ptm_algorithm(void) { return PTM_LIBNAME; }                      \
  int ptm_is_persistent(void) { return PtmPool::kPersistent; }                 \
  int ptm_in_transaction(void) { return ::ptm::this_thread().depth > 0; }      \
  void ptm_restart(void) { PtmRuntime::restart(); }                            \
  void ptm_atomic(void (*fn)(void *), void *arg) {                             \
    PtmRuntime::atomic(fn, arg);                                               \
  }                                                                            \
  void __ptm_region_begin(void) noexcept { PtmRuntime::region_begin(); }       \
  void __ptm_region_end(void) noexcept { PtmRuntime::region_end(); }           \
  int __ptm_region_depth(void) noexcept { return ::ptm::this_thread().depth; } \
  void __ptm_region_unwind(int d) noexcept { PtmRuntime::region_unwind(d); }   \
  void *__ptm_tx_checkpoint(void) { return PtmRuntime::checkpoint(); }         \
  __attribute__((noinline)) void __ptm_tx_begin(const char *where) {           \
    PtmRuntime::begin(where, __builtin_dwarf_cfa());                           \
  }                                                                            \
  int __ptm_tx_commit(void) { return PtmRuntime::commit(); }                   \
  PTM_ABI_INLINE uint8_t __ptm_read_1(const void *a) {                         \
    return PtmRuntime::read<uint8_t, PtmEvent::Read1>(a);                      \
  }                                                                            \
  PTM_ABI_INLINE uint16_t __ptm_read_2(const void *a) {                        \
    return PtmRuntime::read<uint16_t, PtmEvent::Read2>(a);                     \
  }                                                                            \
  PTM_ABI_INLINE uint32_t __ptm_read_4(const void *a) {                        \
    return PtmRuntime::read<uint32_t, PtmEvent::Read4>(a);                     \
  }                                                                            \
  PTM_ABI_INLINE uint64_t __ptm_read_8(const void *a) {                        \
    return PtmRuntime::read<uint64_t, PtmEvent::Read8>(a);                     \
  }                                                                            \
  PTM_ABI_INLINE void __ptm_write_1(void *a, uint8_t v) {                      \
    PtmRuntime::write<uint8_t, PtmEvent::Write1>(a, v);                        \
  }                                                                            \
  PTM_ABI_INLINE void __ptm_write_2(void *a, uint16_t v) {                     \
    PtmRuntime::write<uint16_t, PtmEvent::Write2>(a, v);                       \
  }                                                                            \
  PTM_ABI_INLINE void __ptm_write_4(void *a, uint32_t v) {                     \
    PtmRuntime::write<uint32_t, PtmEvent::Write4>(a, v);                       \
  }                                                                            \
  PTM_ABI_INLINE void __ptm_write_8(void *a, uint64_t v) {                     \
    PtmRuntime::write<uint64_t, PtmEvent::Write8>(a, v);                       \
  }                                                                            \
  PTM_ABI_INLINE void __ptm_read_n(void *d, const void *a, size_t n) {         \
    PtmRuntime::read_n(d, a, n);                                               \
  }                                                                            \
  PTM_ABI_INLINE void __ptm_write_n(void *a, const void *s, size_t n) {        \
    PtmRuntime::write_n(a, s, n);                                              \
  }                                                                            \
  void __ptm_memcpy(void *d, const void *s, size_t n) {                        \
    PtmRuntime::memcpy_tm(d, s, n);                                            \
  }                                                                            \
  void __ptm_memmove(void *d, const void *s, size_t n) {                       \
    PtmRuntime::memmove_tm(d, s, n);                                           \
  }                                                                            \
  void __ptm_memset(void *d, int c, size_t n) {                                \
    PtmRuntime::memset_tm(d, c, n);                                            \
  }                                                                            \
  PTM_DEFINE_LIBC_                                                             \
  PTM_DEFINE_STDLIB_                                                           \
  PTM_DEFINE_PRINTF_                                                           \
  PTM_DEFINE_CHK_                                                              \
  PTM_DEFINE_ALLOC_                                                            \
  PTM_DEFINE_STDCXX_                                                           \
  void __ptm_register_clones(const ptm_clone_entry_t *t, size_t n) {           \
    PtmRuntime::register_clones(t, n);                                         \
  }                                                                            \
  void *__ptm_clone_lookup(const void *fn, const char *where) {                \
    return PtmRuntime::clone_lookup(fn, where);                                \
  }                                                                            \
  void __ptm_unsupported(int kind, const char *what, const char *where) {      \
    PtmRuntime::unsupported(kind, what, where);                                \
  }                                                                            \
  PTM_DEFINE_POOL_                                                             \
  } /* extern "C" */

// (pieces of PTM_DEFINE_RUNTIME, expanded inside its extern "C" block)
#define PTM_LIBC_(EVENT, RET, NAME, PARAMS, ARGS)                              \
  RET __ptm_##NAME PARAMS {                                                    \
    PtmRuntime::barrier<PtmEvent::EVENT>(::ptm::this_thread());                \
    return PtmRuntime::Libc::NAME ARGS;                                        \
  }
#define PTM_DEFINE_LIBC_                                                       \
  PTM_LIBC_(LibcMemchr, void *, memchr, (const void *s, int c, size_t n),      \
            (s, c, n))                                                         \
  PTM_LIBC_(LibcMemcmp, int, memcmp, (const void *a, const void *b, size_t n), \
            (a, b, n))                                                         \
  PTM_LIBC_(LibcStrlen, size_t, strlen, (const char *s), (s))                  \
  PTM_LIBC_(LibcStrnlen, size_t, strnlen, (const char *s, size_t m), (s, m))   \
  PTM_LIBC_(LibcStrcmp, int, strcmp, (const char *a, const char *b), (a, b))   \
  PTM_LIBC_(LibcStrncmp, int, strncmp,                                         \
            (const char *a, const char *b, size_t n), (a, b, n))               \
  PTM_LIBC_(LibcStrcpy, char *, strcpy, (char *d, const char *s), (d, s))      \
  PTM_LIBC_(LibcStrncpy, char *, strncpy, (char *d, const char *s, size_t n),  \
            (d, s, n))                                                         \
  PTM_LIBC_(LibcStpcpy, char *, stpcpy, (char *d, const char *s), (d, s))      \
  PTM_LIBC_(LibcStrcat, char *, strcat, (char *d, const char *s), (d, s))      \
  PTM_LIBC_(LibcStrncat, char *, strncat, (char *d, const char *s, size_t n),  \
            (d, s, n))                                                         \
  PTM_LIBC_(LibcStrchr, char *, strchr, (const char *s, int c), (s, c))        \
  PTM_LIBC_(LibcStrrchr, char *, strrchr, (const char *s, int c), (s, c))      \
  PTM_LIBC_(LibcStrstr, char *, strstr, (const char *h, const char *n),        \
            (h, n))                                                            \
  PTM_LIBC_(LibcStrspn, size_t, strspn, (const char *s, const char *a),        \
            (s, a))                                                            \
  PTM_LIBC_(LibcStrcspn, size_t, strcspn, (const char *s, const char *r),      \
            (s, r))                                                            \
  PTM_LIBC_(LibcStrpbrk, char *, strpbrk, (const char *s, const char *a),      \
            (s, a))                                                            \
  PTM_LIBC_(LibcStrdup, char *, strdup, (const char *s), (s))                  \
  PTM_LIBC_(LibcStrndup, char *, strndup, (const char *s, size_t n), (s, n))

// NAME implemented by Libc::IMPL (glibc's aliases of one function).
#define PTM_LIBC_AS_(EVENT, RET, NAME, IMPL, PARAMS, ARGS)                     \
  RET __ptm_##NAME PARAMS {                                                    \
    PtmRuntime::barrier<PtmEvent::EVENT>(::ptm::this_thread());                \
    return PtmRuntime::Libc::IMPL ARGS;                                        \
  }
#define PTM_STRTO_(RET, NAME, IMPL)                                            \
  PTM_LIBC_AS_(LibcStrto, RET, NAME, IMPL, (const char *s, char **e, int b),   \
               (s, e, b))
#define PTM_STRTOF_(RET, NAME)                                                 \
  PTM_LIBC_(LibcStrto, RET, NAME, (const char *s, char **e), (s, e))
#define PTM_ATO_(RET, NAME)                                                    \
  PTM_LIBC_(LibcStrto, RET, NAME, (const char *s), (s))
// The comparator: its registered clone (a miss makes the transaction
// irrevocable, like any call without a clone).
#define PTM_CMP_CLONE_(CMP, WHO)                                               \
  reinterpret_cast<decltype(CMP)>(PtmRuntime::clone_lookup(                    \
      reinterpret_cast<const void *>(CMP), WHO "'s comparator"))
#define PTM_DEFINE_STDLIB_                                                     \
  PTM_LIBC_(LibcMemrchr, void *, memrchr, (const void *s, int c, size_t n),    \
            (s, c, n))                                                         \
  PTM_LIBC_(LibcStrtokR, char *, strtok_r, (char *s, const char *d, char **p), \
            (s, d, p))                                                         \
  PTM_LIBC_(LibcRandR, int, rand_r, (unsigned *seed), (seed))                  \
  PTM_STRTO_(long, strtol, strtol)                                             \
  PTM_STRTO_(unsigned long, strtoul, strtoul)                                  \
  PTM_STRTO_(long long, strtoll, strtoll)                                      \
  PTM_STRTO_(unsigned long long, strtoull, strtoull)                           \
  PTM_STRTO_(long long, strtoq, strtoll)                                       \
  PTM_STRTO_(unsigned long long, strtouq, strtoull)                            \
  PTM_STRTO_(long, __isoc23_strtol, strtol)                                    \
  PTM_STRTO_(unsigned long, __isoc23_strtoul, strtoul)                         \
  PTM_STRTO_(long long, __isoc23_strtoll, strtoll)                             \
  PTM_STRTO_(unsigned long long, __isoc23_strtoull, strtoull)                  \
  PTM_LIBC_AS_(LibcStrto, long, __strtol_internal, strtol,                     \
               (const char *s, char **e, int b, int), (s, e, b))               \
  PTM_LIBC_AS_(LibcStrto, unsigned long, __strtoul_internal, strtoul,          \
               (const char *s, char **e, int b, int), (s, e, b))               \
  PTM_LIBC_AS_(LibcStrto, long long, __strtoll_internal, strtoll,              \
               (const char *s, char **e, int b, int), (s, e, b))               \
  PTM_LIBC_AS_(LibcStrto, unsigned long long, __strtoull_internal, strtoull,   \
               (const char *s, char **e, int b, int), (s, e, b))               \
  PTM_LIBC_AS_(LibcStrto, double, __strtod_internal, strtod,                   \
               (const char *s, char **e, int), (s, e))                         \
  PTM_STRTOF_(double, strtod)                                                  \
  PTM_STRTOF_(float, strtof)                                                   \
  PTM_STRTOF_(long double, strtold)                                            \
  PTM_ATO_(int, atoi)                                                          \
  PTM_ATO_(long, atol)                                                         \
  PTM_ATO_(long long, atoll)                                                   \
  PTM_ATO_(double, atof)                                                       \
  void __ptm_qsort(void *b, size_t n, size_t sz,                               \
                   int (*cmp)(const void *, const void *)) {                   \
    PtmRuntime::barrier<PtmEvent::LibcQsort>(::ptm::this_thread());            \
    PtmRuntime::Libc::qsort(b, n, sz, PTM_CMP_CLONE_(cmp, "qsort"));           \
  }                                                                            \
  void __ptm_qsort_r(void *b, size_t n, size_t sz,                             \
                     int (*cmp)(const void *, const void *, void *),           \
                     void *arg) {                                              \
    PtmRuntime::barrier<PtmEvent::LibcQsort>(::ptm::this_thread());            \
    PtmRuntime::Libc::qsort_r(b, n, sz, PTM_CMP_CLONE_(cmp, "qsort_r"), arg);  \
  }                                                                            \
  void *__ptm_bsearch(const void *k, const void *b, size_t n, size_t sz,       \
                      int (*cmp)(const void *, const void *)) {                \
    PtmRuntime::barrier<PtmEvent::LibcBsearch>(::ptm::this_thread());          \
    return PtmRuntime::Libc::bsearch(k, b, n, sz,                              \
                                     PTM_CMP_CLONE_(cmp, "bsearch"));          \
  }                                                                            \
  PTM_LIBC_(LibcMath, double, modf, (double x, double *i), (x, i))             \
  PTM_LIBC_(LibcMath, float, modff, (float x, float *i), (x, i))               \
  PTM_LIBC_(LibcMath, long double, modfl, (long double x, long double *i),     \
            (x, i))                                                            \
  PTM_LIBC_(LibcMath, double, frexp, (double x, int *e), (x, e))               \
  PTM_LIBC_(LibcMath, float, frexpf, (float x, int *e), (x, e))                \
  PTM_LIBC_(LibcMath, long double, frexpl, (long double x, int *e), (x, e))    \
  PTM_LIBC_(LibcMath, double, remquo, (double x, double y, int *q), (x, y, q)) \
  PTM_LIBC_(LibcMath, float, remquof, (float x, float y, int *q), (x, y, q))   \
  PTM_LIBC_(LibcMath, void, sincos, (double x, double *s, double *c),          \
            (x, s, c))                                                         \
  PTM_LIBC_(LibcMath, void, sincosf, (float x, float *s, float *c), (x, s, c))

// snprintf & co.; the _chk forms check the object size like glibc's.
#define PTM_DEFINE_PRINTF_                                                     \
  int __ptm_vsnprintf(char *d, size_t n, const char *f, va_list ap) {          \
    PtmRuntime::barrier<PtmEvent::LibcPrintf>(::ptm::this_thread());           \
    return PtmRuntime::Libc::vsnprintf(d, n, f, ap);                           \
  }                                                                            \
  int __ptm_snprintf(char *d, size_t n, const char *f, ...) {                  \
    va_list ap;                                                                \
    va_start(ap, f);                                                           \
    int r = __ptm_vsnprintf(d, n, f, ap);                                      \
    va_end(ap);                                                                \
    return r;                                                                  \
  }                                                                            \
  int __ptm_vsprintf(char *d, const char *f, va_list ap) {                     \
    return __ptm_vsnprintf(d, SIZE_MAX, f, ap);                                \
  }                                                                            \
  int __ptm_sprintf(char *d, const char *f, ...) {                             \
    va_list ap;                                                                \
    va_start(ap, f);                                                           \
    int r = __ptm_vsnprintf(d, SIZE_MAX, f, ap);                               \
    va_end(ap);                                                                \
    return r;                                                                  \
  }                                                                            \
  int __ptm___vsnprintf_chk(char *d, size_t n, int, size_t obj, const char *f, \
                            va_list ap) {                                      \
    if (n > obj)                                                               \
      __chk_fail();                                                            \
    return __ptm_vsnprintf(d, n, f, ap);                                       \
  }                                                                            \
  int __ptm___snprintf_chk(char *d, size_t n, int flag, size_t obj,            \
                           const char *f, ...) {                               \
    va_list ap;                                                                \
    va_start(ap, f);                                                           \
    int r = __ptm___vsnprintf_chk(d, n, flag, obj, f, ap);                     \
    va_end(ap);                                                                \
    return r;                                                                  \
  }                                                                            \
  int __ptm___vsprintf_chk(char *d, int, size_t obj, const char *f,            \
                           va_list ap) {                                       \
    if (obj == 0)                                                              \
      __chk_fail();                                                            \
    PtmRuntime::barrier<PtmEvent::LibcPrintf>(::ptm::this_thread());           \
    return PtmRuntime::Libc::vsnprintf(d, SIZE_MAX, f, ap, obj);               \
  }                                                                            \
  int __ptm___sprintf_chk(char *d, int flag, size_t obj, const char *f, ...) { \
    va_list ap;                                                                \
    va_start(ap, f);                                                           \
    int r = __ptm___vsprintf_chk(d, flag, obj, f, ap);                         \
    va_end(ap);                                                                \
    return r;                                                                  \
  }

// _FORTIFY_SOURCE's checked forms of the string and memory functions: the
// object-size check of glibc's, then the transactional version.
#define PTM_DEFINE_CHK_                                                        \
  void *__ptm___memcpy_chk(void *d, const void *s, size_t n, size_t obj) {     \
    if (n > obj)                                                               \
      __chk_fail();                                                            \
    PtmRuntime::memcpy_tm(d, s, n);                                            \
    return d;                                                                  \
  }                                                                            \
  void *__ptm___memmove_chk(void *d, const void *s, size_t n, size_t obj) {    \
    if (n > obj)                                                               \
      __chk_fail();                                                            \
    PtmRuntime::memmove_tm(d, s, n);                                           \
    return d;                                                                  \
  }                                                                            \
  void *__ptm___memset_chk(void *d, int c, size_t n, size_t obj) {             \
    if (n > obj)                                                               \
      __chk_fail();                                                            \
    PtmRuntime::memset_tm(d, c, n);                                            \
    return d;                                                                  \
  }                                                                            \
  char *__ptm___strcpy_chk(char *d, const char *s, size_t obj) {               \
    if (__ptm_strlen(s) >= obj)                                                \
      __chk_fail();                                                            \
    return __ptm_strcpy(d, s);                                                 \
  }                                                                            \
  char *__ptm___stpcpy_chk(char *d, const char *s, size_t obj) {               \
    if (__ptm_strlen(s) >= obj)                                                \
      __chk_fail();                                                            \
    return __ptm_stpcpy(d, s);                                                 \
  }                                                                            \
  char *__ptm___strcat_chk(char *d, const char *s, size_t obj) {               \
    if (__ptm_strlen(d) + __ptm_strlen(s) >= obj)                              \
      __chk_fail();                                                            \
    return __ptm_strcat(d, s);                                                 \
  }                                                                            \
  char *__ptm___strncpy_chk(char *d, const char *s, size_t n, size_t obj) {    \
    if (n > obj)                                                               \
      __chk_fail();                                                            \
    return __ptm_strncpy(d, s, n);                                             \
  }                                                                            \
  char *__ptm___strncat_chk(char *d, const char *s, size_t n, size_t obj) {    \
    if (__ptm_strlen(d) + __ptm_strnlen(s, n) >= obj)                          \
      __chk_fail();                                                            \
    return __ptm_strncat(d, s, n);                                             \
  }

#define PTM_DEFINE_ALLOC_                                                      \
  void *__ptm_tx_malloc(size_t n) {                                            \
    return PtmRuntime::alloc<PtmTxHeap>(n, 0);                                 \
  }                                                                            \
  void *__ptm_tx_calloc(size_t m, size_t n) {                                  \
    return PtmRuntime::alloc_zeroed<PtmTxHeap>(m, n);                          \
  }                                                                            \
  void *__ptm_tx_realloc(void *p, size_t n) {                                  \
    return PtmRuntime::realloc_tm(p, n);                                       \
  }                                                                            \
  void *__ptm_tx_aligned_alloc(size_t a, size_t n) {                           \
    return PtmRuntime::alloc<PtmTxHeap>(n, a);                                 \
  }                                                                            \
  int __ptm_tx_posix_memalign(void **p, size_t a, size_t n) {                  \
    return PtmRuntime::posix_memalign_tm(p, a, n);                             \
  }                                                                            \
  void __ptm_tx_free(void *p) { PtmRuntime::release<PtmTxHeap>(p); }           \
  void *__ptm_tx_allocate_exception(size_t n) noexcept {                       \
    return PtmRuntime::allocate_exception(n);                                  \
  }                                                                            \
  void *__ptm_tx_new(size_t n) { return PtmRuntime::new_tm(n, 0); }            \
  void *__ptm_tx_new_nothrow(size_t n) {                                       \
    return PtmRuntime::alloc<PtmTxHeap>(n ? n : 1, 0);                         \
  }                                                                            \
  void *__ptm_tx_new_aligned(size_t n, size_t a) {                             \
    return PtmRuntime::new_tm(n, a);                                           \
  }                                                                            \
  void *__ptm_tx_new_aligned_nothrow(size_t n, size_t a) {                     \
    return PtmRuntime::alloc<PtmTxHeap>(n ? n : 1, a);                         \
  }                                                                            \
  void __ptm_tx_delete(void *p) { PtmRuntime::release<PtmTxHeap>(p); }

namespace ptm {
// ptm_calloc outside a transaction (runtime/pool/pool_libc.cpp): allocated
// and zeroed in one transaction of its own, whose commit makes the zeros
// durable with the block in every durability mode.
void *calloc_in_own_tx(size_t nmemb, size_t size);
} // namespace ptm

#define PTM_DEFINE_POOL_                                                       \
  int ptm_open(const char *path, size_t size) {                                \
    return PtmPool::open(path, size);                                          \
  }                                                                            \
  void ptm_close(void) { PtmPool::close(); }                                   \
  unsigned ptm_pool_slots(void) { return PtmPool::slots(); }                   \
  int ptm_sync(void) { return PtmPool::sync(); }                               \
  static const bool ptm_pool_noted_ = PtmPool::note_library();                 \
  void *ptm_root(size_t size) { return PtmPool::root(size); }                  \
  void *ptm_malloc(size_t n) {                                                 \
    return ::ptm::this_thread().depth ? PtmRuntime::alloc<PtmPool::Heap>(n, 0) \
                                      : PtmPool::Heap::allocate(n, 0);         \
  }                                                                            \
  void *ptm_calloc(size_t m, size_t n) {                                       \
    if (::ptm::this_thread().depth)                                            \
      return PtmRuntime::alloc_zeroed<PtmPool::Heap>(m, n);                    \
    return ::ptm::calloc_in_own_tx(m, n);                                      \
  }                                                                            \
  void *ptm_aligned_alloc(size_t a, size_t n) {                                \
    return ::ptm::this_thread().depth ? PtmRuntime::alloc<PtmPool::Heap>(n, a) \
                                      : PtmPool::Heap::allocate(n, a);         \
  }                                                                            \
  void ptm_free(void *p) {                                                     \
    if (::ptm::this_thread().depth)                                            \
      PtmRuntime::release<PtmPool::Heap>(p);                                   \
    else                                                                       \
      PtmPool::Heap::release(p);                                               \
  }

#endif // PTM_RUNTIME_ABI_DEFINE_RUNTIME_H
