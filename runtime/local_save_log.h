//===- local_save_log.h - locals restored on abort --------------*- C++ -*-===//
//
// __ptm_tx_save_local(addr, n) copies a local of the function holding the
// outermost region when the transaction starts; an abort writes the copies
// back (newest first) before re-executing, so the re-execution sees the
// locals as they were at the transaction's start.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_LOCAL_SAVE_LOG_H
#define PTM_RUNTIME_LOCAL_SAVE_LOG_H

#include "runtime/grow_buffer.h"

#include <cstring>

namespace ptm {

struct LocalSave {
  void *addr;
  size_t size;
  size_t offset; // of the copy in the arena
};

struct LocalSaveLog {
  GrowBuffer<LocalSave> entries;
  GrowBuffer<unsigned char> arena;

  size_t size() const { return entries.size; }
  void clear() {
    entries.clear();
    arena.clear();
  }

  void save(void *addr, size_t n) {
    size_t at = arena.extend(n);
    if (n)
      memcpy(&arena[at], addr, n);
    entries.push_back(LocalSave{addr, n, at});
  }

  // Writes every copy back, newest first; returns how many were restored.
  // The log is kept: a retry records the locals again after its begin.
  size_t restore() {
    for (size_t i = entries.size; i-- > 0;)
      if (entries[i].size)
        memcpy(entries[i].addr, &arena[entries[i].offset], entries[i].size);
    return entries.size;
  }

  void release() {
    entries.release();
    arena.release();
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_LOCAL_SAVE_LOG_H
