//===- key_summary.h - which words a write log may hold ---------*- C++ -*-===//
//
// KeySummary: the set of keys (8-byte word addresses, or chunk addresses) a
// transaction's write log holds, as a 512-bit Bloom filter with one hash.
// A read barrier asks it before it searches the log, so a miss is one
// shift, one load and one AND; a false positive costs a search that finds
// nothing. With one bit per key in 512 bits, 16 keys give about 3% false
// positives and 32 keys 6%. (The 64-bit summary it replaces gave 22% and
// 40%: yada's transactions, 14 to 32 keys each, sent a fifth to two fifths
// of their reads of unwritten memory into the log's hash index.)
//
// fold() is a 64-bit summary of the same set (bit `hash & 63`), for the
// deferred-flush order's test of two transactions' overlap
// (persistent_logging.h), which is exchanged between threads as one word.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_KEY_SUMMARY_H
#define PTM_RUNTIME_KEY_SUMMARY_H

#include "runtime/base/word_hash.h"

#include <cstdint>

namespace ptm {

struct KeySummary {
  static constexpr unsigned kWords = 8; // 512 bits
  uint64_t words[kWords] = {};

  // The filter bit of KEY: the top 9 bits of a multiplicative hash of its
  // word number.
  static unsigned bit_of(uint64_t key) {
    return unsigned(word_hash(key) >> 55);
  }

  __attribute__((always_inline)) bool may_contain(uint64_t key) const {
    unsigned b = bit_of(key);
    return words[b / 64] >> (b % 64) & 1;
  }
  __attribute__((always_inline)) void add(uint64_t key) {
    unsigned b = bit_of(key);
    words[b / 64] |= uint64_t(1) << (b % 64);
  }
  void clear() {
    for (uint64_t &w : words)
      w = 0;
  }
  uint64_t fold() const {
    uint64_t f = 0;
    for (uint64_t w : words)
      f |= w;
    return f;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_KEY_SUMMARY_H
