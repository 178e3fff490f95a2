//===- fuzz_mutation.h - random damage to a pool image ----------*- C++ -*-===//
//
// The pool fuzz test (test_pool_fuzz.cpp) damages a copy of a pool file in
// memory. PoolImage holds the file's bytes and the places worth damaging,
// found in the image: the pool header, the root descriptor, the headers and
// written entries of the thread slots in use, the heap's header and the
// records (state word, bitmap) of its chunks in use and a few free ones.
// mutate() picks a region and applies one to three operations there:
// flipped bits (1 to 20), a 64-bit word set to a telling value (0, all
// ones, one bit changed, an address inside the pool, ...), random bytes,
// zeroed bytes. Half of the header and heap-header mutations then recompute
// the checksum, and half of the state-word ones the check byte (a forged
// but well-sealed value: it must be caught by the layout checks, not by the
// checksum). Everything is drawn from the caller's generator: one seed, one
// mutation.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_POOL_FUZZ_MUTATION_H
#define PTM_TEST_POOL_FUZZ_MUTATION_H

#include "runtime/palloc/heap_format.h"
#include "runtime/pool/pool_format.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

enum class FuzzRegion { kHeader, kSlots, kHeap, kRoot };
constexpr int kFuzzRegions = 4;

inline const char *region_name(FuzzRegion r) {
  switch (r) {
  case FuzzRegion::kHeader:
    return "header";
  case FuzzRegion::kSlots:
    return "thread slots";
  case FuzzRegion::kHeap:
    return "heap metadata";
  case FuzzRegion::kRoot:
    return "root descriptor";
  }
  return "?";
}

struct ByteRange {
  uint64_t lo, hi; // [lo, hi) in the file
};

struct PoolImage {
  std::vector<unsigned char> bytes;
  ptm::pool::PoolHeader header{};
  std::vector<ByteRange> slot_headers, slot_entries;
  std::vector<uint64_t> chunk_records; // offsets of heap chunk records
  uint64_t heap_offset = 0;

  // Reads PATH and finds its regions; false if it is not a readable pool.
  bool load(const std::string &path) {
    FILE *f = fopen(path.c_str(), "rb");
    if (!f)
      return false;
    unsigned char buf[65536];
    size_t n;
    bytes.clear();
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
      bytes.insert(bytes.end(), buf, buf + n);
    fclose(f);
    if (bytes.size() < ptm::pool::kHeaderSize)
      return false;
    memcpy(&header, bytes.data(), sizeof header);
    if (header.pool_size != bytes.size())
      return false;
    find_slots();
    find_heap();
    return true;
  }

private:
  bool zero(uint64_t lo, uint64_t hi) const {
    for (uint64_t i = lo; i < hi; ++i)
      if (bytes[i])
        return false;
    return true;
  }

  void find_slots() {
    const uint64_t hdr = sizeof(ptm::pool::SlotHeader);
    for (uint32_t i = 0; i < header.slot_count; ++i) {
      uint64_t s = header.slots_offset + uint64_t(i) * header.slot_size;
      if (zero(s, s + hdr))
        continue;
      slot_headers.push_back({s, s + hdr});
      uint64_t end = s + header.slot_size;
      while (end > s + hdr && bytes[end - 1] == 0)
        --end;
      if (end > s + hdr) { // the written entries and one record beyond
        uint64_t hi = s + hdr + (end - s - hdr + 63) / 32 * 32;
        slot_entries.push_back(
            {s + hdr, hi < s + header.slot_size ? hi : s + header.slot_size});
      }
    }
  }

  void find_heap() {
    using namespace ptm::palloc;
    heap_offset = header.heap_offset;
    uint64_t nchunks, data;
    compute_layout(0, header.pool_size - heap_offset, &nchunks, &data);
    unsigned free_kept = 0;
    for (uint64_t c = 0; c < nchunks; ++c) {
      uint64_t rec = heap_offset + kHeaderBytes + c * kRecordBytes;
      uint64_t state;
      memcpy(&state, &bytes[rec], 8);
      if (state != 0 || free_kept++ < 4)
        chunk_records.push_back(rec);
    }
  }
};

struct Mutation {
  FuzzRegion region = FuzzRegion::kHeader;
  std::string what; // the operations, for the failure message
  bool forged = false;
};

class Mutator {
public:
  Mutator(const PoolImage &base, std::mt19937_64 &rng)
      : base_(base), rng_(rng) {}

  // Damages IMG (a copy of the base's bytes).
  Mutation mutate(std::vector<unsigned char> &img) {
    Mutation m;
    static const FuzzRegion kWeights[] = {
        FuzzRegion::kHeader, FuzzRegion::kHeader, FuzzRegion::kHeader,
        FuzzRegion::kSlots,  FuzzRegion::kSlots,  FuzzRegion::kSlots,
        FuzzRegion::kSlots,  FuzzRegion::kHeap,   FuzzRegion::kHeap,
        FuzzRegion::kHeap,   FuzzRegion::kHeap,   FuzzRegion::kRoot,
        FuzzRegion::kRoot};
    m.region = kWeights[below(sizeof kWeights / sizeof kWeights[0])];
    if (m.region == FuzzRegion::kSlots && base_.slot_headers.empty())
      m.region = FuzzRegion::kHeader;
    ByteRange r = pick_range(m.region);
    unsigned ops = 1 + below(3);
    for (unsigned i = 0; i < ops; ++i)
      apply(img, r, &m.what);
    forge(img, r, &m);
    return m;
  }

private:
  const PoolImage &base_;
  std::mt19937_64 &rng_;

  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }

  ByteRange pick_range(FuzzRegion region) {
    using namespace ptm::palloc;
    const uint64_t root = ptm::pool::kRootOffset;
    switch (region) {
    case FuzzRegion::kHeader:
      if (below(4) != 0) // the checksummed fields
        return {0, offsetof(ptm::pool::PoolHeader, checksum)};
      return {offsetof(ptm::pool::PoolHeader, checksum),
              ptm::pool::kHeaderSize};
    case FuzzRegion::kRoot:
      return {root, root + 3 * sizeof(uint64_t)};
    case FuzzRegion::kSlots:
      if (base_.slot_entries.empty() || below(5) < 2)
        return base_.slot_headers[below(base_.slot_headers.size())];
      return base_.slot_entries[below(base_.slot_entries.size())];
    case FuzzRegion::kHeap:
      break;
    }
    if (base_.chunk_records.empty() || below(4) == 0)
      return {base_.heap_offset, base_.heap_offset + 9 * sizeof(uint64_t)};
    uint64_t rec = base_.chunk_records[below(base_.chunk_records.size())];
    if (below(2) == 0)
      return {rec, rec + 8}; // the state word
    uint64_t end = rec + kRecordBytes;
    while (end > rec + 64 && base_.bytes[end - 1] == 0)
      --end;
    end = end + 8 < rec + kRecordBytes ? end + 8 : rec + kRecordBytes;
    return {rec + 64, end}; // the bitmap's words in use, and one more
  }

  uint64_t telling_value(uint64_t old) {
    const ptm::pool::PoolHeader &h = base_.header;
    switch (below(9)) {
    case 0:
      return 0;
    case 1:
      return ~uint64_t(0);
    case 2:
      return old + 1;
    case 3:
      return old - 1;
    case 4:
      return old ^ (uint64_t(1) << below(64));
    case 5:
      return h.base + below(h.pool_size); // an address inside the pool
    case 6:
      return uint64_t(1) << below(64);
    case 7:
      return h.pool_size;
    default:
      return rng_();
    }
  }

  void apply(std::vector<unsigned char> &img, ByteRange r, std::string *what) {
    char buf[160];
    uint64_t len = r.hi - r.lo;
    switch (below(4)) {
    case 0: { // flipped bits
      unsigned k = 1 + unsigned(below(20));
      for (unsigned i = 0; i < k; ++i)
        img[r.lo + below(len)] ^= uint8_t(1u << below(8));
      snprintf(buf, sizeof buf, "flip %u bits in [%" PRIu64 ", %" PRIu64 "); ",
               k, r.lo, r.hi);
      break;
    }
    case 1: { // a word set to a telling value
      uint64_t at = (r.lo + below(len)) & ~uint64_t(7);
      if (at < r.lo || at + 8 > r.hi)
        at = r.lo;
      uint64_t old = 0, v;
      memcpy(&old, &img[at], len < 8 ? len : 8);
      v = telling_value(old);
      memcpy(&img[at], &v, len < 8 ? len : 8);
      snprintf(buf, sizeof buf,
               "u64 at %" PRIu64 ": 0x%" PRIx64 " -> 0x%" PRIx64 "; ", at, old,
               v);
      break;
    }
    case 2: { // random bytes
      uint64_t n = 1 + below(len < 32 ? len : 32);
      uint64_t at = r.lo + below(len - n + 1);
      for (uint64_t i = 0; i < n; ++i)
        img[at + i] = uint8_t(rng_());
      snprintf(buf, sizeof buf, "%" PRIu64 " random bytes at %" PRIu64 "; ", n,
               at);
      break;
    }
    default: { // zeroed bytes
      uint64_t n = 1 + below(len < 64 ? len : 64);
      uint64_t at = r.lo + below(len - n + 1);
      memset(&img[at], 0, n);
      snprintf(buf, sizeof buf, "%" PRIu64 " zero bytes at %" PRIu64 "; ", n,
               at);
      break;
    }
    }
    *what += buf;
  }

  // Half the time, makes the damage well-sealed: the pool header's or the
  // heap header's checksum recomputed, a state word's check byte.
  void forge(std::vector<unsigned char> &img, ByteRange r, Mutation *m) {
    using namespace ptm::palloc;
    if (below(2) != 0)
      return;
    if (m->region == FuzzRegion::kHeader && r.lo == 0) {
      ptm::pool::PoolHeader h;
      memcpy(&h, img.data(), sizeof h);
      h.checksum = ptm::pool::header_checksum(h);
      memcpy(img.data(), &h, sizeof h);
      m->what += "header checksum recomputed";
      m->forged = true;
    } else if (m->region == FuzzRegion::kHeap && r.lo == base_.heap_offset) {
      uint64_t w[9];
      memcpy(w, &img[r.lo], sizeof w);
      w[8] = fnv(w, 8);
      memcpy(&img[r.lo], w, sizeof w);
      m->what += "heap header checksum recomputed";
      m->forged = true;
    } else if (m->region == FuzzRegion::kHeap && r.hi - r.lo == 8) {
      uint64_t st;
      memcpy(&st, &img[r.lo], 8);
      st = seal(st & ((uint64_t(1) << 56) - 1));
      memcpy(&img[r.lo], &st, 8);
      m->what += "state word resealed";
      m->forged = true;
    }
  }
};

#endif // PTM_TEST_POOL_FUZZ_MUTATION_H
