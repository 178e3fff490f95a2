//===- version_locks.h - TL2's versioned write locks and clock --*- C++ -*-===//
//
// The concurrency metadata of the Trinity-VR-TL2 peer (trinity_tl2_policy.h),
// volatile as in the original: a global version clock and a table of
// versioned locks. A lock guards four consecutive chunks of the replica
// (96 bytes; a chunk, persistent_copy.h, is guarded by one lock, so the
// holder may write its whole persistent line) and the table wraps around
// (an address outside the pool hashes into it too). A lock word is the
// clock value of the last commit that released it, or kLocked | the
// holder's id.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_DURABLETX_VERSION_LOCKS_H
#define PTM_BENCH_DURABLETX_VERSION_LOCKS_H

#include "benchmarks/durabletx/persistent_copy.h"

#include <atomic>
#include <cstdint>

namespace ptm {

struct VersionLocks {
  static constexpr size_t kLocks = size_t(1) << 22;
  static constexpr size_t kChunksPerLock = 4;
  static constexpr uint64_t kLocked = uint64_t(1) << 63;

  static inline std::atomic<uint64_t> clock{0};
  static inline std::atomic<uint64_t> table[kLocks];

  // The lock of the chunk that holds ADDR (REPLICA: the pool's base).
  static std::atomic<uint64_t> *of(const void *addr, const char *replica) {
    size_t chunk = (reinterpret_cast<uintptr_t>(addr) -
                    reinterpret_cast<uintptr_t>(replica)) /
                   kChunkBytes;
    return &table[(chunk / kChunksPerLock) & (kLocks - 1)];
  }
};

} // namespace ptm

#endif // PTM_BENCH_DURABLETX_VERSION_LOCKS_H
