//===- pool_format.h - the on-media layout of a pool file (v1) --*- C++ -*-===//
//
//   offset 0          PoolHeader, 4 KiB, immutable after creation, checksummed
//   offset 4096       RootDescriptor (one cache line, changed transactionally)
//   offset 8192       slot_count thread slots of slot_size bytes each
//   heap_offset       the persistent heap, up to the end of the pool
//
// A thread slot is one cache line of SlotHeader followed by 32-byte LogEntry
// records. docs/pool.md describes every field; this header is the definition.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_POOL_FORMAT_H
#define PTM_RUNTIME_POOL_POOL_FORMAT_H

#include <cstddef>
#include <cstdint>

namespace ptm {
namespace pool {

constexpr char kMagic[8] = {'P', 'T', 'M', 'P', 'O', 'O', 'L', '\0'};
constexpr uint32_t kVersion = 1;
constexpr uint64_t kHeaderSize = 4096;
constexpr uint64_t kRootOffset = 4096;
constexpr uint64_t kSlotsOffset = 8192;
constexpr uint32_t kDefaultSlotCount = 64;
constexpr uint32_t kMaxSlotCount = 256; // one heap arena per slot
constexpr uint64_t kDefaultSlotSize = 256 * 1024;
constexpr uint64_t kMinSlotSize = 4096;
constexpr uint64_t kMinHeapSize = 128 * 1024; // palloc: one chunk + metadata
constexpr uint64_t kPageSize = 4096;
// Where new pools are mapped unless the creator asks for another address:
// far from the kernel's default placement of heap, executables and mmaps.
constexpr uint64_t kDefaultBase = 0x200000000000ull;

struct PoolHeader {
  char magic[8];         // "PTMPOOL\0"
  uint32_t version;      // kVersion
  uint32_t header_size;  // kHeaderSize
  uint64_t pool_size;    // bytes, the whole file
  uint64_t base;         // virtual address the pool is always mapped at
  uint32_t slot_count;   // thread slots
  uint32_t reserved0;    // 0
  uint64_t slot_size;    // bytes per slot (multiple of 4096)
  uint64_t slots_offset; // kSlotsOffset
  uint64_t heap_offset;  // first byte of the heap (multiple of 4096)
  uint64_t root_offset;  // kRootOffset: where the RootDescriptor is
  uint8_t uuid[16];      // random, from creation
  char creator[64];      // library (or tool) that created the pool
  uint64_t checksum;     // header_checksum() of the fields above
};
static_assert(sizeof(PoolHeader) <= kHeaderSize, "header fits its page");

// Changed only by transactions (so a crash leaves the old or the new root).
struct alignas(64) RootDescriptor {
  uint64_t offset;         // of the root object from the pool base; 0: none yet
  uint64_t size;           // bytes
  uint64_t heap_formatted; // kHeapFormatted once the heap region is laid out
};
constexpr uint64_t kHeapFormatted = 0x48454150464d54ull; // "TMFPAEH"

// Slot states (low byte of the status word; the generation is above it).
enum SlotState : uint8_t {
  kIdle = 0,          // no transaction needs recovery
  kUndoActive = 1,    // eager transaction running: undo on recovery
  kRedoCommitted = 2, // lazy transaction committed: replay on recovery
};

struct alignas(64) SlotHeader {
  uint64_t status;       // state | generation << 8
  uint64_t commit_order; // global order of a redo-committed transaction
  uint64_t redo_count;   // entries of a redo-committed transaction
};

// One logged 8-byte word. ADDR is 8-aligned; META is a byte mask (bit i:
// byte i of the word is logged) | generation << 8; DATA is the word (old
// bytes for undo, new bytes for redo); CHECK = entry_check(addr, meta, data),
// so a torn or stale entry is recognized.
struct alignas(32) LogEntry {
  uint64_t addr;
  uint64_t meta;
  uint64_t data;
  uint64_t check;
};
static_assert(sizeof(LogEntry) == 32, "32-byte entries, two per line");

constexpr uint64_t slot_status(SlotState state, uint64_t gen) {
  return uint64_t(state) | gen << 8;
}
constexpr SlotState status_state(uint64_t status) {
  return SlotState(status & 0xff);
}
constexpr uint64_t status_gen(uint64_t status) { return status >> 8; }

constexpr uint64_t entry_meta(uint8_t mask, uint64_t gen) {
  return uint64_t(mask) | gen << 8;
}

inline uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

inline uint64_t entry_check(uint64_t addr, uint64_t meta, uint64_t data) {
  uint64_t h = mix64(addr ^ 0x50544d4c4f47ull); // never 0 for a zero entry
  h = mix64(h ^ meta);
  h = mix64(h ^ data);
  return h | 1; // a zeroed entry (check 0) is never valid
}

// The entry is whole and belongs to generation GEN.
inline bool entry_valid(const LogEntry &e, uint64_t gen) {
  return (e.meta >> 8) == gen && (e.meta & 0xff) != 0 && (e.addr & 7) == 0 &&
         e.check == entry_check(e.addr, e.meta, e.data);
}

// FNV-1a over the header with the checksum field taken as 0.
inline uint64_t header_checksum(const PoolHeader &h) {
  PoolHeader copy = h;
  copy.checksum = 0;
  const auto *p = reinterpret_cast<const unsigned char *>(&copy);
  uint64_t x = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < sizeof copy; ++i) {
    x ^= p[i];
    x *= 0x100000001b3ull;
  }
  return x;
}

inline uint64_t slot_capacity(uint64_t slot_size) {
  return (slot_size - sizeof(SlotHeader)) / sizeof(LogEntry);
}

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_POOL_FORMAT_H
