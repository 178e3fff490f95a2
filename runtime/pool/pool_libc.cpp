//===- pool_libc.cpp - free, realloc, malloc_usable_size of pool blocks ---===//
//
// Pool memory meets the rest of the program (DESIGN.md, docs/pool.md "Pool
// blocks outside transactions"): a block of the open pool's heap (malloc or
// new inside a transaction of an ip_ library, ptm_malloc anywhere) may be
// handed to the ordinary free, realloc, malloc_usable_size or C++ delete
// (libstdc++'s operator delete calls free) anywhere in the program. Every
// runtime library defines these three functions, so they interpose on libc's
// in the program (the executable's definition under -flto, the library's in
// its shared form, found before libc's): a pointer inside the pool's heap
// [chunk_lo, chunk_hi) (one unsigned compare) goes to the pool, every other
// one to glibc. The STM libraries have no pool (chunk_lo == chunk_hi == 0),
// so everything goes to glibc.
//
//   free     ptm_free: outside a transaction its own small transaction,
//            inside one (an uninstrumented caller) deferred to the commit
//   realloc  a new pool block (ptm_malloc), the old bytes copied
//            (transactionally inside a transaction; outside, plainly and
//            written back), the old block released: a pool block stays one
//   malloc_usable_size  the pool heap's usable size
//
//===----------------------------------------------------------------------===//

#include "ptm.h"
#include "ptm_abi.h"
#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/slot_log_index.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/heap_adapter.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <dlfcn.h>

extern "C" {
// glibc's own entry points (exported for interposers like this one).
void __libc_free(void *);
void *__libc_realloc(void *, size_t);
}

namespace ptm {
namespace {

// Whether PTR is in the open pool's heap (false while none is open).
inline bool in_pool(const void *ptr) {
  uintptr_t a = reinterpret_cast<uintptr_t>(ptr);
  return __builtin_expect(a - chunk_lo < chunk_hi - chunk_lo, 0);
}

using UsableSizeFn = size_t (*)(void *);

// glibc's malloc_usable_size (it has no __libc_ alias): the next definition
// after ours, looked up once.
size_t libc_usable_size(void *ptr) {
  static std::atomic<UsableSizeFn> next{nullptr};
  UsableSizeFn fn = next.load(std::memory_order_acquire);
  if (!fn) {
    fn = reinterpret_cast<UsableSizeFn>(dlsym(RTLD_NEXT, "malloc_usable_size"));
    if (!fn)
      fatal("malloc_usable_size: glibc's definition not found (dlsym: %s)",
            dlerror());
    next.store(fn, std::memory_order_release);
  }
  return fn(ptr);
}

} // namespace

void *calloc_in_own_tx(size_t nmemb, size_t size) {
  void *p = nullptr;
  pool::run_in_tx([&] { p = ptm_calloc(nmemb, size); });
  return p;
}

namespace {

void *pool_realloc(void *ptr, size_t size) {
  if (size == 0) {
    ptm_free(ptr);
    return nullptr;
  }
  size_t old_size = pool::pool_heap->usable_size(ptr);
  void *fresh = ptm_malloc(size);
  if (!fresh) {
    errno = ENOMEM;
    return nullptr; // the old block is left as it was
  }
  size_t n = old_size < size ? old_size : size;
  if (this_thread().depth > 0) {
    __ptm_memcpy(fresh, ptr, n);
  } else if (pool::buffered) {
    // (buffered durability, and strict on a file through the persister: a
    // plain store stays in the pool's DRAM copy; the copy is a transaction
    // of its own, which the persister writes to the file)
    pool::run_in_tx([&] { __ptm_memcpy(fresh, ptr, n); });
  } else {
    memcpy(fresh, ptr, n);
    persist::persist_range(fresh, n);
  }
  ptm_free(ptr);
  return fresh;
}

} // namespace
} // namespace ptm

extern "C" {

void free(void *ptr) noexcept {
  if (ptm::in_pool(ptr))
    ptm_free(ptr);
  else
    __libc_free(ptr);
}

void *realloc(void *ptr, size_t size) noexcept {
  if (ptm::in_pool(ptr))
    return ptm::pool_realloc(ptr, size);
  return __libc_realloc(ptr, size);
}

size_t malloc_usable_size(void *ptr) noexcept {
  if (ptm::in_pool(ptr))
    return ptm::pool::pool_heap->usable_size(ptr);
  return ptm::libc_usable_size(ptr);
}

} // extern "C"
