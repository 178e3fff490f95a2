//===- bloom_filter.h - 1024-bit signatures (RingSTM) ------------*- C++
//-*-===//
//
// A set of 8-byte granules as a 1024-bit Bloom filter with one hash: false
// positives only (a spurious conflict, never a missed one). The words are
// relaxed atomics because ring entries are read while a later writer may
// recycle them (RingSTM detects that and aborts).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_BLOOM_FILTER_H
#define PTM_RUNTIME_BLOOM_FILTER_H

#include "runtime/base/word_hash.h"
#include "runtime/stm/stm_access.h"

#include <atomic>
#include <cstdint>

namespace ptm {

struct BloomFilter {
  static constexpr unsigned kBits = 1024;
  static constexpr unsigned kWords = kBits / 64;
  uint64_t words[kWords];

  static unsigned bit_of(uintptr_t granule) {
    return static_cast<unsigned>(word_hash(granule) >> 54); // top 10 bits
  }

  void clear() {
    for (unsigned i = 0; i < kWords; ++i)
      words[i] = 0;
  }
  __attribute__((always_inline)) void add_granule(uintptr_t granule) {
    unsigned b = bit_of(granule);
    words[b / 64] |= 1ull << (b % 64);
  }
  void add(uintptr_t addr, size_t n) {
    for (uintptr_t g = granule_of(addr); g < addr + n; g += kGranule)
      add_granule(g);
  }
  bool may_contain(uintptr_t granule) const {
    unsigned b = bit_of(granule);
    return words[b / 64] & (1ull << (b % 64));
  }
  bool empty() const {
    uint64_t any = 0;
    for (unsigned i = 0; i < kWords; ++i)
      any |= words[i];
    return any == 0;
  }

  // Shared copies (ring entries).
  void store_to(uint64_t *shared) const {
    for (unsigned i = 0; i < kWords; ++i)
      __atomic_store_n(&shared[i], words[i], __ATOMIC_RELAXED);
  }
  bool intersects_shared(const uint64_t *shared) const {
    for (unsigned i = 0; i < kWords; ++i)
      if (words[i] & __atomic_load_n(&shared[i], __ATOMIC_RELAXED))
        return true;
    return false;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_BLOOM_FILTER_H
