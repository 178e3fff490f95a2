//===- clone_table.h - original function -> transactional clone -*- C++ -*-===//
//
// Filled by __ptm_register_clones from the constructors of instrumented units
// (possibly before main, possibly the same pair from several units), read by
// __ptm_clone_lookup on every indirect or cross-unit call in a transaction.
//
// Open addressing with linear probing over a power-of-two array of slots.
// Writers serialize on a mutex; readers never lock or wait: a slot's clone is
// stored before its key (release), and a grown table is published with one
// pointer store while the old one stays valid (tables are never freed; the
// total is bounded by twice the final size). A registered clone maps to
// itself, so code that already holds a clone can look it up again.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_CLONE_TABLE_H
#define PTM_RUNTIME_CLONE_TABLE_H

#include "ptm_abi.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace ptm {

struct CloneSlot {
  std::atomic<const void *> original;
  std::atomic<const void *> clone;
};

struct CloneTable {
  size_t mask; // capacity - 1
  size_t used;
  CloneSlot *slots;
};

extern std::atomic<const CloneTable *> clone_table;

__attribute__((always_inline)) inline size_t clone_hash(const void *fn) {
  auto bits = reinterpret_cast<uintptr_t>(fn);
  return static_cast<size_t>((bits >> 4) * 0x9E3779B97F4A7C15ull >> 20);
}

// The registered clone of FN, or nullptr.
__attribute__((always_inline)) inline const void *find_clone(const void *fn) {
  const CloneTable *table = clone_table.load(std::memory_order_acquire);
  if (!table || !fn)
    return nullptr;
  for (size_t i = clone_hash(fn) & table->mask;; i = (i + 1) & table->mask) {
    const void *key = table->slots[i].original.load(std::memory_order_acquire);
    if (key == fn)
      return table->slots[i].clone.load(std::memory_order_relaxed);
    if (!key)
      return nullptr;
  }
}

// Adds every pair of TABLE (and clone -> clone); duplicates are ignored, and
// the first clone registered for an original is kept. Returns the number of
// pairs that were new.
size_t register_clones(const ptm_clone_entry_t *table, size_t n);

// Number of functions (originals and clones) in the table.
size_t clone_table_size();

} // namespace ptm

#endif // PTM_RUNTIME_CLONE_TABLE_H
