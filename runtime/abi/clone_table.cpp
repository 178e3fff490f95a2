//===- clone_table.cpp - original function -> transactional clone ---------===//

#include "runtime/abi/clone_table.h"

#include "runtime/base/report.h"

#include <cstdlib>
#include <mutex>
#include <new>

namespace ptm {

std::atomic<const CloneTable *> clone_table{nullptr};

namespace {

std::mutex writer_mutex;
CloneTable *writable; // the published table, as seen by writers

CloneTable *new_table(size_t capacity) {
  auto *table = new (std::nothrow) CloneTable;
  auto *slots = static_cast<CloneSlot *>(calloc(capacity, sizeof(CloneSlot)));
  if (!table || !slots)
    fatal("out of memory growing the clone table to %zu entries", capacity);
  table->mask = capacity - 1;
  table->used = 0;
  table->slots = slots;
  return table;
}

// Stores (key, clone) in TABLE, which is not full; false if KEY is present.
bool insert(CloneTable *table, const void *key, const void *clone) {
  for (size_t i = clone_hash(key) & table->mask;; i = (i + 1) & table->mask) {
    CloneSlot &slot = table->slots[i];
    const void *present = slot.original.load(std::memory_order_relaxed);
    if (present == key)
      return false;
    if (!present) {
      slot.clone.store(clone, std::memory_order_relaxed);
      slot.original.store(key, std::memory_order_release);
      ++table->used;
      return true;
    }
  }
}

// Makes room for one more key (load factor at most 1/2).
void reserve_one() {
  if (writable && (writable->used + 1) * 2 <= writable->mask + 1)
    return;
  size_t capacity = writable ? (writable->mask + 1) * 2 : 256;
  CloneTable *grown = new_table(capacity);
  if (writable)
    for (size_t i = 0; i <= writable->mask; ++i) {
      const CloneSlot &slot = writable->slots[i];
      const void *key = slot.original.load(std::memory_order_relaxed);
      if (key)
        insert(grown, key, slot.clone.load(std::memory_order_relaxed));
    }
  // Readers of the old table keep a consistent (older) view: it is not freed.
  writable = grown;
  clone_table.store(grown, std::memory_order_release);
}

bool add(const void *key, const void *clone) {
  reserve_one();
  return insert(writable, key, clone);
}

} // namespace

size_t register_clones(const ptm_clone_entry_t *table, size_t n) {
  std::lock_guard<std::mutex> lock(writer_mutex);
  size_t fresh = 0;
  for (size_t i = 0; i < n; ++i) {
    const void *original = table[i].original;
    const void *clone = table[i].clone;
    if (!original || !clone)
      continue;
    if (add(original, clone))
      ++fresh;
    add(clone, clone);
  }
  return fresh;
}

size_t clone_table_size() {
  std::lock_guard<std::mutex> lock(writer_mutex);
  return writable ? writable->used : 0;
}

} // namespace ptm
