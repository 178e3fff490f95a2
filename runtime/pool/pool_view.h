//===- pool_view.h - typed access to a mapped pool --------------*- C++ -*-===//
//
// A mapped pool: base address and header, and where its root descriptor,
// thread slots, log entries and heap are. Used by the library (mapped at the
// header's base) and by tools (a private copy at the same address).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_POOL_VIEW_H
#define PTM_RUNTIME_POOL_POOL_VIEW_H

#include "runtime/pool/pool_format.h"

#include <cstdint>

namespace ptm {
namespace pool {

struct PoolView {
  char *base = nullptr;
  PoolHeader header{};

  uint64_t size() const { return header.pool_size; }
  RootDescriptor *root() const {
    return reinterpret_cast<RootDescriptor *>(base + header.root_offset);
  }
  // The open state word (kOpenStateOffset): kPoolOpen while open.
  volatile uint64_t *open_state() const {
    return reinterpret_cast<volatile uint64_t *>(base + kOpenStateOffset);
  }
  SlotHeader *slot(uint32_t i) const {
    return reinterpret_cast<SlotHeader *>(base + header.slots_offset +
                                          uint64_t(i) * header.slot_size);
  }
  LogEntry *entries(uint32_t i) const {
    return reinterpret_cast<LogEntry *>(reinterpret_cast<char *>(slot(i)) +
                                        sizeof(SlotHeader));
  }
  uint64_t capacity() const { return slot_capacity(header.slot_size); }
  // Where record header 0 of slot I keeps its records: the slot's entries,
  // or the log extension its LOG_EXT names (pool_format.h). *CAP: how many
  // records. nullptr if LOG_EXT names no whole extension of slot I inside
  // the heap (damage).
  const LogEntry *record0(uint32_t i, uint64_t *cap) const {
    uint64_t off = slot(i)->log_ext;
    if (off == 0) {
      *cap = capacity();
      return entries(i);
    }
    if (off % alignof(LogExtensionHeader) != 0 || off < header.heap_offset ||
        off > header.pool_size - sizeof(LogExtensionHeader))
      return nullptr;
    const auto *h = reinterpret_cast<const LogExtensionHeader *>(base + off);
    uint64_t room = (header.pool_size - off - sizeof *h) / sizeof(LogEntry);
    if (h->magic != kLogExtMagic || h->slot != i || h->capacity > room ||
        h->check != extension_check(i, h->capacity))
      return nullptr;
    *cap = h->capacity;
    return reinterpret_cast<const LogEntry *>(h + 1);
  }
  char *heap() const { return base + header.heap_offset; }
  uint64_t heap_size() const { return header.pool_size - header.heap_offset; }

  // [addr, addr + n) is user data of this pool (root descriptor or heap):
  // the only places recovery writes to.
  bool is_data(uint64_t addr, uint64_t n) const {
    uint64_t b = reinterpret_cast<uint64_t>(base);
    uint64_t root_lo = b + header.root_offset;
    uint64_t root_hi = root_lo + sizeof(RootDescriptor);
    uint64_t heap_lo = b + header.heap_offset, heap_hi = b + header.pool_size;
    return (addr >= root_lo && addr + n <= root_hi) ||
           (addr >= heap_lo && addr + n <= heap_hi && addr + n >= addr);
  }
  // Some byte of [addr, addr + n) is user data of this pool.
  bool overlaps_data(uint64_t addr, uint64_t n) const {
    uint64_t b = reinterpret_cast<uint64_t>(base);
    uint64_t root_lo = b + header.root_offset;
    uint64_t root_hi = root_lo + sizeof(RootDescriptor);
    uint64_t heap_lo = b + header.heap_offset, heap_hi = b + header.pool_size;
    return (addr < root_hi && addr + n > root_lo) ||
           (addr < heap_hi && addr + n > heap_lo);
  }
};

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_POOL_VIEW_H
