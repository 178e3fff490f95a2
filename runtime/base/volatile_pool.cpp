//===- volatile_pool.cpp - the pool API of libraries without a pool -------===//

#include "runtime/base/volatile_pool.h"

#include "ptm.h"
#include "runtime/base/report.h"

#include <cerrno>
#include <cstdlib>
#include <mutex>

namespace ptm {

int VolatilePool::open(const char *path, size_t) {
  // One source, every library (docs/pool.md "STM libraries"): the program
  // runs on, with its root object and ptm_malloc blocks in process memory;
  // the file is neither read nor written. Said once per process.
  static std::once_flag said;
  std::call_once(said, [path] {
    note("library '%s' is volatile (STM): pool '%s' is not opened; "
         "ptm_root and ptm_malloc use process memory, lost at exit (no "
         "crash consistency)",
         ptm_algorithm(), path ? path : "(null)");
  });
  return 0;
}

void VolatilePool::close() {}

void *VolatilePool::root(size_t size) {
  static std::mutex mutex;
  static void *block;
  static size_t block_size;
  std::lock_guard<std::mutex> lock(mutex);
  if (!block) {
    if (size == 0) {
      error("ptm_root(0): no root object exists yet");
      return nullptr;
    }
    block = calloc(1, size);
    if (!block) {
      error("ptm_root(%zu): out of memory", size);
      return nullptr;
    }
    block_size = size;
    return block;
  }
  if (size > block_size) {
    error("ptm_root(%zu): the root object was created with %zu bytes and "
          "cannot grow",
          size, block_size);
    return nullptr;
  }
  return block;
}

} // namespace ptm
