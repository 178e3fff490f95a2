//===- pool_format.h - the on-media layout of a pool file (v5) --*- C++ -*-===//
//
//   offset 0          PoolHeader, 4 KiB, immutable after creation, checksummed
//   offset 4096       RootDescriptor (one cache line, changed transactionally)
//   offset 4160       the open state (one word: open, or closed cleanly)
//   offset 8192       slot_count thread slots of slot_size bytes each
//   heap_offset       the persistent heap, up to the end of the pool
//
// A thread slot is two cache lines of SlotHeader (three record headers:
// version 3; the link to a log extension: version 6) followed by 32-byte
// LogEntry records: word entries (one record),
// chunk entries of coarse-grained logging (a header record + the chunk's
// bytes, whole cache lines) and padding records (version 2). Record header 0
// describes a log that starts at the first entry (undo logs, one-record redo
// logs, part 0 of a log ring); headers 1 and 2 the records that start at
// parts 1 and 2 of a log ring (ring_part_begin). docs/pool.md describes every
// field; this header is the definition.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_POOL_FORMAT_H
#define PTM_RUNTIME_POOL_POOL_FORMAT_H

#include <cstddef>
#include <cstdint>

namespace ptm {
namespace pool {

constexpr char kMagic[8] = {'P', 'T', 'M', 'P', 'O', 'O', 'L', '\0'};
// 2: chunk entries, heap granularity; 3: log ring (three record headers);
// 4: multilinear entry checks (entry_check); 5: heap version 2 (the cover
// bitmap of large blocks, docs/palloc.md); 6: log extensions (LOG_EXT).
// A version-5 pool is read as it is (its LOG_EXT words are 0).
constexpr uint32_t kVersion = 6;
constexpr uint32_t kOldestVersion = 5;
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

// The open state: one word in the root page, on the line after the
// RootDescriptor's, written alone (no checksum to tear): kPoolOpen from an
// open until the pool is closed cleanly (ptm_close, or the exit of the
// program that opened it), 0 after that and in a pool never opened (older
// runtimes leave it 0). A pool whose word says open was not closed: its
// program still runs, or it crashed or was killed (docs/pool.md).
constexpr uint64_t kOpenStateOffset = kRootOffset + 64;
constexpr uint64_t kPoolOpen = 0x4e45504f4d5450ull; // "PTMOPEN"

// Coarse-grained logging granularity G (paper IV-B): 16, 32 or 64 bytes
// (CMake PTM_LOG_GRANULARITY). Every heap is formatted with blocks aligned and
// rounded to G; a pool whose heap has a smaller granularity is refused.
#ifndef PTM_LOG_GRANULARITY
#define PTM_LOG_GRANULARITY 32
#endif
constexpr uint64_t kLogGranularity = PTM_LOG_GRANULARITY;
static_assert(kLogGranularity == 16 || kLogGranularity == 32 ||
                  kLogGranularity == 64,
              "PTM_LOG_GRANULARITY must be 16, 32 or 64");

// Slot states (low byte of the status word; the generation is above it).
enum SlotState : uint8_t {
  kIdle = 0,          // no transaction needs recovery
  kUndoActive = 1,    // eager transaction running: undo on recovery
  kRedoCommitted = 2, // lazy transaction committed: replay on recovery
  // Lazy transaction committed by a sealed commit (docs/algorithms.md): its
  // entries and this status were flushed behind one fence, so the status may
  // be durable while an entry is not. Every declared entry valid: replay, as
  // kRedoCommitted. An entry invalid: the commit's fence never completed, the
  // transaction was not acknowledged and wrote nothing in place: discard.
  kRedoSealed = 3,
  // Crafty's undo log (libs/crafty_policy.h): COMMIT_ORDER is the order the
  // transaction commits at if it does; REDO_COUNT its entries (0: appended
  // and fenced one by one, a valid prefix counts). At recovery, W = the
  // largest FLOOR: at or below W it is superseded (durable, or never
  // applied); above W rolled back, largest COMMIT_ORDER first; a declared
  // entry invalid: never drained, so nothing of it was stored: discarded.
  kUndoLogged = 4,
  // sp3's speculative log (docs/pool.md "Speculative log"): the slot's
  // entries are a stream of self-validating records, each with its commit
  // order, the orders it depends on and its stream's epoch
  // (SlotHeader::stream_epoch). Recovery keeps those above the floor whose
  // dependencies are kept or at or below the floor, and replays them in
  // commit order.
  kRedoStream = 5,
};

// Generations (the high 56 bits of a status word and of an entry's META):
// a slot's are congruent to its index modulo kGenStride, each transaction
// taking the slot's generation kGenStride above its last, so no two slots
// ever use the same one. A log extension's block is heap memory that any
// slot's record may have used before: the entries another slot's record
// left there never validate as this record's (entry_valid compares the
// generation), however the block's pages reach the medium.
constexpr uint64_t kGenStride = kMaxSlotCount;

// A committed redo log: replayed in commit order at recovery.
constexpr bool is_redo_state(SlotState s) {
  return s == kRedoCommitted || s == kRedoSealed;
}

// One record of a slot: its state and, committed, its place in the commit
// order and its length. FLOOR (log ring, docs/algorithms.md "Log ring"): a
// replay floor its writer knew when it wrote the header, i.e. every
// transaction with a commit order <= FLOOR had its data durable then;
// recovery takes the largest FLOOR of the pool's record headers (whatever
// their state) and ignores every committed record at or below it.
struct RecordHeader {
  uint64_t status;       // state | generation << 8
  uint64_t commit_order; // global order of a redo-committed transaction
  uint64_t redo_count;   // records of a redo-committed transaction
  uint64_t floor;        // replay floor (0: none)
};

// Parts of a log ring, each with its record header.
constexpr unsigned kRingParts = 3;

// Record header 0 is also the slot's status word (STATUS, COMMIT_ORDER,
// REDO_COUNT at the offsets of versions 1 and 2).
struct alignas(64) SlotHeader {
  uint64_t status;       // state | generation << 8
  uint64_t commit_order; // global order of a redo-committed transaction
  uint64_t redo_count;   // records of a redo-committed transaction
  uint64_t floor;        // replay floor (RecordHeader)
  RecordHeader ring[kRingParts - 1]; // record headers 1 and 2
  uint64_t claim_gen;                // first generation of the last claim
  // The epoch of the slot's last speculative log (sp3; 0: none yet): each
  // new stream of the slot takes the next one, so a record of an older
  // stream, left in the entries, is never taken for one of this stream's.
  uint64_t stream_epoch;
  // Record header 0's log extension (docs/pool.md "Log extensions"): the
  // offset from the pool's base of a LogExtensionHeader in the heap whose
  // records replace the slot's entries for record header 0 (0: none).
  uint64_t log_ext;
  uint64_t reserved; // 0
};
static_assert(sizeof(SlotHeader) == 128, "two cache lines");

// The first line of a log extension: a run of the heap's free chunks that a
// transaction whose log outgrew its slot took out of the heap's volatile
// free set (never allocated in the heap's metadata, so a crash gives it back
// by itself). Its CAPACITY records follow this line. CHECK =
// extension_check(): a link to a line that is not a whole header is damage.
struct alignas(64) LogExtensionHeader {
  uint64_t magic;    // kLogExtMagic
  uint64_t slot;     // the thread slot that links it
  uint64_t capacity; // records after this line
  uint64_t check;    // extension_check(slot, capacity)
  uint64_t reserved[4];
};
static_assert(sizeof(LogExtensionHeader) == 64, "one cache line");
constexpr uint64_t kLogExtMagic = 0x5458454c4d5450ull; // "PTMLEXT"

inline RecordHeader &record_header(SlotHeader &h, unsigned part) {
  static_assert(sizeof(RecordHeader) == 32 &&
                    offsetof(SlotHeader, ring) == sizeof(RecordHeader),
                "record headers are an array");
  return reinterpret_cast<RecordHeader *>(&h)[part];
}
inline const RecordHeader &record_header(const SlotHeader &h, unsigned part) {
  return reinterpret_cast<const RecordHeader *>(&h)[part];
}

// First record of part P of a log ring in a slot of CAPACITY records: the
// entries are split in three, each part starting on a cache line (an even
// record). Part P ends where part P + 1 begins (part 2 at CAPACITY).
constexpr uint64_t ring_part_begin(uint64_t capacity, unsigned part) {
  return part >= kRingParts ? capacity : (capacity * part / kRingParts) & ~1ull;
}

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

// Entry kinds, by the low byte of META:
//   word    mask != 0; one record, as above
//   chunk   mask 0, DATA = G (16, 32 or 64), ADDR G-aligned; the record is
//           followed by the chunk's G bytes (old for undo, new for redo) in
//           the next records, the entry padded to whole cache lines
//           (chunk_records(G) records); CHECK = chunk_check(addr, meta, G,
//           bytes) covers the bytes too, so a torn chunk is invalid
//   pad     mask 0, ADDR 0, DATA 0, CHECK = entry_check(0, meta, 0); one
//           record that puts the next chunk entry on a cache line boundary
//   head    mask 0, ADDR kStreamHeadAddr, DATA = R | epoch << 32: the first
//           record of a speculative log's record (kRedoStream), on a cache
//           line with a sum; R records follow the line; its generation is
//           the record's commit order
//   sum     mask 0, ADDR kStreamSumAddr, DATA = stream_body_sum of the R
//           records: the second record of a head line (an entry left from
//           an older record, even of the same order, cannot complete a
//           torn one)
//   dep     mask 0, ADDR kDepEntryAddr, DATA = a commit order the record
//           depends on (speculative logs only)
constexpr uint64_t chunk_records(uint64_t g) { return g <= 32 ? 2 : 4; }
constexpr uint64_t kStreamHeadAddr = 1;
constexpr uint64_t kDepEntryAddr = 2;
constexpr uint64_t kStreamSumAddr = 3;

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

// The check of an entry (version 4): a multilinear sum of its words, each
// times its own odd key (so the entry's words are position-tagged and one
// differing word always changes the sum), mixed once and made odd (a zeroed
// entry, check 0, is never valid). The products are independent, so the
// check costs one multiply per word and one mix64, not a chain of mixes.
constexpr uint64_t kCheckKeys[11] = {
    0xec5918ec1a970a39ull, 0xcc30d2955ad406a5ull, 0x98cc4e337ffb7369ull,
    0xdf50e0a30d8c3431ull, 0xe01a14ef1a121343ull, 0xcae922d8c07316ffull,
    0xb28a9a56846bb571ull, 0xd4cdc9df170643c7ull, 0x995570aa25bd1c51ull,
    0xd066e38fab319a4dull, 0xc5f3b229cf1b912dull};

inline uint64_t entry_sum(uint64_t addr, uint64_t meta, uint64_t data) {
  return addr * kCheckKeys[0] + meta * kCheckKeys[1] + data * kCheckKeys[2];
}

inline uint64_t entry_check(uint64_t addr, uint64_t meta, uint64_t data) {
  return mix64(entry_sum(addr, meta, data)) | 1;
}

// G (16, 32 or 64) bytes after the header words: keys 3 to 10.
inline uint64_t chunk_check(uint64_t addr, uint64_t meta, uint64_t g,
                            const void *bytes) {
  uint64_t h = entry_sum(addr, meta, g);
  for (uint64_t i = 0; i < g / 8 && i < 8; ++i) {
    uint64_t w;
    __builtin_memcpy(&w, static_cast<const char *>(bytes) + 8 * i, 8);
    h += w * kCheckKeys[3 + i];
  }
  return mix64(h) | 1;
}

// The chunk bytes of the chunk entry whose header is E.
inline unsigned char *chunk_bytes(LogEntry &e) {
  return reinterpret_cast<unsigned char *>(&e + 1);
}
inline const unsigned char *chunk_bytes(const LogEntry &e) {
  return reinterpret_cast<const unsigned char *>(&e + 1);
}

enum EntryKind : uint8_t {
  kWordEntry,
  kChunkEntry,
  kPadEntry,
  kHeadEntry,
  kSumEntry,
  kDepEntry,
  kBadEntry
};

// The kind of the (generation-matching) record E by its fields alone.
inline EntryKind entry_kind(const LogEntry &e) {
  if ((e.meta & 0xff) != 0)
    return kWordEntry;
  if (e.data == 0 && e.addr == 0)
    return kPadEntry;
  if (e.addr == kStreamHeadAddr)
    return kHeadEntry;
  if (e.addr == kStreamSumAddr)
    return kSumEntry;
  if (e.addr == kDepEntryAddr && e.data != 0)
    return kDepEntry;
  if ((e.data == 16 || e.data == 32 || e.data == 64) &&
      (e.addr & (e.data - 1)) == 0 && e.addr != 0)
    return kChunkEntry;
  return kBadEntry;
}

// Records the entry at E takes (1 unless a chunk entry).
inline uint64_t entry_records(const LogEntry &e) {
  return entry_kind(e) == kChunkEntry ? chunk_records(e.data) : 1;
}

// The entry at E (of AVAIL records up to the end of the log) is whole and
// belongs to generation GEN.
inline bool entry_valid(const LogEntry &e, uint64_t gen, uint64_t avail = 1) {
  if ((e.meta >> 8) != gen)
    return false;
  switch (entry_kind(e)) {
  case kWordEntry:
    return (e.addr & 7) == 0 && e.check == entry_check(e.addr, e.meta, e.data);
  case kPadEntry:
    return e.check == entry_check(0, e.meta, 0);
  case kHeadEntry:
  case kSumEntry:
  case kDepEntry:
    return e.check == entry_check(e.addr, e.meta, e.data);
  case kChunkEntry:
    return avail >= chunk_records(e.data) &&
           e.check == chunk_check(e.addr, e.meta, e.data, chunk_bytes(e));
  default:
    return false;
  }
}

// The sum of the checks of the N records of a speculative record's body
// at E (entry by entry: a chunk's bytes are covered by its check).
inline uint64_t stream_body_sum(const LogEntry *e, uint64_t n) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < n; i += entry_records(e[i]))
    sum += e[i].check;
  return sum;
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

inline uint64_t extension_check(uint64_t slot, uint64_t capacity) {
  return mix64(kLogExtMagic ^ mix64(slot * kCheckKeys[0] + capacity)) | 1;
}

inline uint64_t slot_capacity(uint64_t slot_size) {
  return (slot_size - sizeof(SlotHeader)) / sizeof(LogEntry);
}

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_POOL_FORMAT_H
