//===- persistent_copy.h - the replica's persistent copy --------*- C++ -*-===//
//
// Not a ptm library: the memory layout shared by the peers of Trinity and
// Quadra (Ramalhete, Correia and Felber, "Efficient Algorithms for Persistent
// Transactional Memory", PPoPP 2021) in their volatile-replica (VR) form.
// The program reads and writes a volatile replica of its data in place; here
// the replica is the open pool (on /dev/shm in the benchmarks, so DRAM
// speed, as the originals' replica file). Every 24 bytes of the replica (a
// chunk: three 64-bit words) own one 64-byte line of the persistent copy,
// which holds the chunk's durable value, the value it had before the
// transaction that last wrote it (what recovery restores) and that
// transaction's sequence number:
//
//   Trinity line   main[24] back[24] seq[8] padding[8]    (triplets)
//   Quadra line    main[24] back[24] seq[8] count[2][4]   (quadruplets)
//
// Because a line holds everything recovery needs for its chunk, a commit
// writes each line it touches once and flushes it once (the stores within a
// line reach persistence in program order).
//
// PersistentCopy<Line> is that array of lines, one per chunk of the pool,
// behind a metadata area of sequence words 256 bytes apart (one per thread
// for Trinity's TL2 form, the first for the flat-combining forms), and the
// arithmetic from a replica address to its chunk and line. Like the Romulus
// peer's back copy it is an anonymous mapping (zero pages until written): it
// receives every store, clwb and sfence of the protocol, so the cost is
// real, but nothing in it survives the process (no recovery).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_DURABLETX_PERSISTENT_COPY_H
#define PTM_BENCH_DURABLETX_PERSISTENT_COPY_H

#include "runtime/base/report.h"
#include "runtime/pool/persistent_pool.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <sys/mman.h>

namespace ptm {

constexpr size_t kChunkBytes = 24; // replica bytes per persistent line

struct alignas(64) TrinityLine {
  unsigned char main[kChunkBytes];
  unsigned char back[kChunkBytes];
  uint64_t seq;
  uint64_t padding;
};
static_assert(sizeof(TrinityLine) == 64, "one line per chunk");

struct alignas(64) QuadraLine {
  unsigned char main[kChunkBytes];
  unsigned char back[kChunkBytes];
  uint64_t seq;
  uint32_t count[2]; // lines of the transaction, indexed by seq & 1
};
static_assert(sizeof(QuadraLine) == 64, "one line per chunk");

template <class Line> struct PersistentCopy {
  static constexpr size_t kSeqWords = 128;
  static constexpr size_t kSeqStride = 256; // bytes between sequence words
  static constexpr size_t kMetaBytes = kSeqWords * kSeqStride;

  // The replica (the open pool) and the copy made for it.
  static inline char *base = nullptr;
  static inline size_t size = 0;
  static inline Line *lines = nullptr;
  static inline char *meta = nullptr;

  // Maps the copy for the open pool if it is not yet (a pool opened at
  // another address or size gets a new one). Any thread, any time.
  static void ensure() {
    if (__builtin_expect(mapped_for.load(std::memory_order_acquire) ==
                             pool::open_view.base,
                         1))
      return;
    remap();
  }

  static bool in_replica(const void *addr) {
    return reinterpret_cast<uintptr_t>(addr) -
               reinterpret_cast<uintptr_t>(base) <
           size;
  }
  static size_t chunk_of(const void *addr) {
    return (reinterpret_cast<uintptr_t>(addr) -
            reinterpret_cast<uintptr_t>(base)) /
           kChunkBytes;
  }
  static char *chunk_addr(size_t chunk) { return base + chunk * kChunkBytes; }
  // (the last chunk may be cut by the end of the pool)
  static size_t chunk_bytes(size_t chunk) {
    return std::min(kChunkBytes, size - chunk * kChunkBytes);
  }
  static uint64_t *seq_word(size_t i) {
    return reinterpret_cast<uint64_t *>(meta + i * kSeqStride);
  }

  // Whether the durable value (the lines' main) of [addr, addr + n) equals
  // the replica's: 1 yes, 0 no, -1 no copy or not pool memory.
  static int durable_matches(const void *addr, size_t n) {
    if (!lines || !in_replica(addr) || n > size ||
        !in_replica(static_cast<const char *>(addr) + n - 1))
      return -1;
    auto *p = static_cast<const unsigned char *>(addr);
    for (size_t i = 0; i < n; ++i) {
      size_t off =
          static_cast<size_t>(p + i - reinterpret_cast<unsigned char *>(base));
      if (lines[off / kChunkBytes].main[off % kChunkBytes] != p[i])
        return 0;
    }
    return 1;
  }

private:
  static inline std::atomic<char *> mapped_for{nullptr};
  static inline std::mutex remap_mutex;

  __attribute__((noinline, cold)) static void remap() {
    std::lock_guard<std::mutex> guard(remap_mutex);
    char *pool_base = pool::open_view.base;
    if (mapped_for.load(std::memory_order_relaxed) == pool_base)
      return;
    if (meta)
      munmap(meta, bytes_for(size));
    size_t n = pool::open_view.size();
    void *p = mmap(nullptr, bytes_for(n), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      fatal("durabletx: cannot map a persistent copy for a pool of %zu bytes",
            n);
    meta = static_cast<char *>(p);
    lines = reinterpret_cast<Line *>(meta + kMetaBytes);
    base = pool_base;
    size = n;
    mapped_for.store(pool_base, std::memory_order_release);
  }

  static size_t bytes_for(size_t pool_size) {
    return kMetaBytes + (pool_size / kChunkBytes + 1) * sizeof(Line);
  }
};

} // namespace ptm

#endif // PTM_BENCH_DURABLETX_PERSISTENT_COPY_H
