//===- heap_format.h - the persistent heap's on-media format ----*- C++ -*-===//
//
// Constants of the region layout (docs/palloc.md), the chunk state word
// (kind, class, arena, count, check byte) and the layout computation shared
// by format, attach and the allocator. Internal to runtime/palloc/.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PALLOC_HEAP_FORMAT_H
#define PTM_RUNTIME_PALLOC_HEAP_FORMAT_H

#include <cstddef>
#include <cstdint>

namespace ptm {
namespace palloc {

constexpr uint64_t kMagic = 0x31504145484d5450ull; // "PTMHEAP1"
// 2: a large block's continuation chunks are marked in the cover bitmap
// (their state words stay 0), so a large allocation logs O(chunks/64) words.
constexpr uint64_t kVersion = 2;
constexpr size_t kHeaderBytes = 4096;
constexpr unsigned kChunkShift = 16;
constexpr size_t kChunkSize = size_t(1) << kChunkShift;
constexpr size_t kMinBlock = 16;
constexpr size_t kBitmapWords = kChunkSize / kMinBlock / 64; // 64
constexpr size_t kRecordWords = 8 + kBitmapWords;            // 72
constexpr size_t kRecordBytes = kRecordWords * 8;            // 576
constexpr size_t kMaxSmall = 8192;
constexpr unsigned kMaxClasses = 40;
constexpr uint32_t kNone = ~uint32_t(0);

// State word: kind (bits 0-7), class (8-15), arena (16-23), count (24-55:
// chunks of a large block), check byte (56-63) so that a flipped bit is
// detected. A continuation chunk of a large block has state word 0 and its
// bit set in the cover bitmap; kLargeCont is never stored: it is what the
// volatile hints and chunk_state() report for a covered chunk.
enum Kind : uint64_t { kFree = 0, kSmall = 1, kLargeHead = 2, kLargeCont = 3 };

inline uint64_t check_byte(uint64_t low56) {
  uint64_t x = low56;
  uint64_t f = 0;
  for (int i = 0; i < 7; ++i, x >>= 8)
    f ^= x & 0xff;
  return f ^ 0x5a;
}
inline uint64_t seal(uint64_t low56) {
  return low56 | (check_byte(low56) << 56);
}
inline uint64_t make_small(unsigned cls, unsigned arena) {
  return seal(kSmall | uint64_t(cls) << 8 | uint64_t(arena) << 16);
}
inline uint64_t make_head(unsigned arena, uint64_t n) {
  return seal(kLargeHead | uint64_t(arena) << 16 | n << 24);
}
inline uint64_t make_cont(uint64_t dist) {
  return seal(kLargeCont | dist << 24);
}
inline bool sealed(uint64_t st) {
  return (st >> 56) == check_byte(st & ((uint64_t(1) << 56) - 1));
}
inline unsigned kind_of(uint64_t st) { return st & 0xff; }
inline unsigned class_of(uint64_t st) { return (st >> 8) & 0xff; }
inline unsigned arena_of(uint64_t st) { return (st >> 16) & 0xff; }
inline uint64_t count_of(uint64_t st) { return (st >> 24) & 0xffffffffull; }

inline uint64_t fnv(const uint64_t *w, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; ++i)
    for (int b = 0; b < 8; ++b) {
      h ^= (w[i] >> (8 * b)) & 0xff;
      h *= 0x100000001b3ull;
    }
  return h;
}

inline uintptr_t align_up(uintptr_t x, uintptr_t a) {
  return (x + a - 1) & ~(a - 1);
}

// Bytes of the cover bitmap of K chunks: one bit per chunk, whole cache
// lines (so it shares no line with the chunk records).
inline uint64_t cover_bytes(uint64_t k) { return (k + 511) / 512 * 64; }

// Chunk count and data offset of a region at BASE of LEN bytes: the header,
// the chunk records, the cover bitmap (at kHeaderBytes + K * kRecordBytes),
// then the 4096-aligned data.
inline bool compute_layout(uintptr_t base, size_t len, uint64_t *nchunks,
                           uint64_t *data_offset) {
  if (len < kHeaderBytes)
    return false;
  uint64_t k = (len - kHeaderBytes) / (kChunkSize + kRecordBytes);
  for (;; --k) {
    uintptr_t data =
        align_up(base + kHeaderBytes + k * kRecordBytes + cover_bytes(k), 4096);
    if (data + k * kChunkSize <= base + len || k == 0) {
      *nchunks = k;
      *data_offset = data - base;
      return data + k * kChunkSize <= base + len;
    }
  }
}

inline bool valid_granularity(size_t g) {
  return g == 16 || g == 32 || g == 64;
}

} // namespace palloc
} // namespace ptm

#endif // PTM_RUNTIME_PALLOC_HEAP_FORMAT_H
