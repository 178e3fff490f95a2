//===- quadra_commit.h - Quadra's durable commit ----------------*- C++ -*-===//
//
// Quadra (PPoPP 2021) makes a transaction durable with one fence. Each line
// of the persistent copy (persistent_copy.h) holds a chunk's main, its back,
// the sequence number of the transaction that last wrote it and, in
// count[seq & 1], how many lines that transaction wrote. With SEQ the
// committing transaction's number (a volatile counter) and C the number of
// distinct chunks it wrote:
//
//   for each line of those chunks:
//       back = main; count[SEQ & 1] = 0; seq = SEQ;
//       main = the replica's chunk; count[SEQ & 1] = C; clwb line
//   sfence                                      (the fence: durable from here)
//
// so C clwb and 1 sfence. Recovery (not implemented: see persistent_copy.h)
// finds the highest seq; the transaction it numbers is durable only if
// exactly count lines carry it, each with that count, and is otherwise
// undone by copying back over main in its lines. C must be known before the
// first line is written: the chunk list is sorted and its repeats dropped
// first.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_DURABLETX_QUADRA_COMMIT_H
#define PTM_BENCH_DURABLETX_QUADRA_COMMIT_H

#include "benchmarks/durabletx/persistent_copy.h"
#include "runtime/persist/persist.h"

#include <algorithm>
#include <atomic>
#include <cstring>

namespace ptm {

struct QuadraCommit {
  using Copy = PersistentCopy<QuadraLine>;

  // Numbers the transactions (the batches of the flat-combining form);
  // only the committer reads and advances it.
  static inline uint64_t next_seq = 1;

  // CHUNKS[0..N) may hold repeats (it is sorted in place).
  static void commit(size_t *chunks, size_t n) {
    std::sort(chunks, chunks + n);
    size_t *end = std::unique(chunks, chunks + n);
    const uint64_t seq = next_seq++;
    const auto count = static_cast<uint32_t>(end - chunks);
    for (size_t *c = chunks; c != end; ++c) {
      QuadraLine &line = Copy::lines[*c];
      memcpy(line.back, line.main, kChunkBytes);
      std::atomic_signal_fence(std::memory_order_seq_cst); // (in this order)
      line.count[seq & 1] = 0;
      std::atomic_signal_fence(std::memory_order_seq_cst);
      line.seq = seq;
      std::atomic_signal_fence(std::memory_order_seq_cst);
      memcpy(line.main, Copy::chunk_addr(*c), Copy::chunk_bytes(*c));
      std::atomic_signal_fence(std::memory_order_seq_cst);
      line.count[seq & 1] = count;
      persist::clwb(&line);
    }
    persist::sfence();
  }
};

} // namespace ptm

#endif // PTM_BENCH_DURABLETX_QUADRA_COMMIT_H
