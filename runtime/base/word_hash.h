//===- word_hash.h - the multiplicative hash of a word address --*- C++ -*-===//
//
// word_hash(A): the number of the 8-byte word at A times 2^64 / phi
// (Fibonacci hashing). Its high bits are well mixed; a table of 2^K entries
// takes the top K bits (>> (64 - K)). Used by the redo logs' indexes and
// key summaries and by the STM's Bloom filter.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_WORD_HASH_H
#define PTM_RUNTIME_WORD_HASH_H

#include <cstdint>

namespace ptm {

__attribute__((always_inline)) inline uint64_t word_hash(uint64_t addr) {
  return (addr >> 3) * 0x9e3779b97f4a7c15ull;
}

} // namespace ptm

#endif // PTM_RUNTIME_WORD_HASH_H
