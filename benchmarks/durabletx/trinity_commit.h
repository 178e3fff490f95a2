//===- trinity_commit.h - Trinity's durable commit --------------*- C++ -*-===//
//
// Trinity (PPoPP 2021) makes a transaction durable with two fences. Each
// line of the persistent copy (persistent_copy.h) holds a chunk's main, its
// back and the sequence number of the transaction that last wrote it. With
// SEQ the committing transaction's number (one past a sequence word of the
// copy's metadata, which counts the durable commits; in the TL2 form each
// thread has its own word and its id is SEQ's top byte):
//
//   for each line of a chunk written, once:
//       back = main; seq = SEQ; main = the replica's chunk; clwb line
//   sfence                                                    (fence 1)
//   sequence word + 1; clwb it; sfence        (fence 2: durable from here)
//
// so C + 1 clwb and 2 sfence for C distinct chunks. Recovery (not
// implemented: see persistent_copy.h) copies back over main in every line
// whose seq is one past its sequence word: a transaction that did not
// finish fence 2. A line already stamped SEQ in
// this commit is skipped, so the chunk list may hold repeats.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_BENCH_DURABLETX_TRINITY_COMMIT_H
#define PTM_BENCH_DURABLETX_TRINITY_COMMIT_H

#include "benchmarks/durabletx/persistent_copy.h"
#include "runtime/persist/persist.h"

#include <atomic>
#include <cstring>

namespace ptm {

struct TrinityCommit {
  using Copy = PersistentCopy<TrinityLine>;

  // The lines of CHUNKS[0..N) (repeats allowed), stamped SEQ and flushed;
  // no fence.
  static void write_lines(const size_t *chunks, size_t n, uint64_t seq) {
    for (size_t i = 0; i < n; ++i) {
      TrinityLine &line = Copy::lines[chunks[i]];
      if (line.seq == seq)
        continue;
      memcpy(line.back, line.main, kChunkBytes);
      std::atomic_signal_fence(std::memory_order_seq_cst); // (in this order)
      line.seq = seq;
      std::atomic_signal_fence(std::memory_order_seq_cst);
      memcpy(line.main, Copy::chunk_addr(chunks[i]),
             Copy::chunk_bytes(chunks[i]));
      persist::clwb(&line);
    }
  }

  // The step that makes the transaction durable, after fence 1.
  static void advance(uint64_t *sequence_word) {
    *sequence_word = *sequence_word + 1;
    persist::clwb(sequence_word);
    persist::sfence();
  }

  // The whole commit of the flat-combining form: sequence word 0 counts
  // the batches made durable (lines never written have seq 0; the first
  // batch is numbered 1).
  static void commit(const size_t *chunks, size_t n) {
    uint64_t *word = Copy::seq_word(0);
    write_lines(chunks, n, *word + 1);
    persist::sfence();
    advance(word);
  }
};

} // namespace ptm

#endif // PTM_BENCH_DURABLETX_TRINITY_COMMIT_H
