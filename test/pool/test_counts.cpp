//===- test_counts.cpp - clwb/sfence per transaction = Listing 1 ----------===//
//
// For W distinct written 8-byte words, W in {1, 2, 5, 10}, the ptm_stats
// deltas of one committed transaction must be exactly Listing 1's formulas:
//   lazy (p_cgl_lazy, p_orec_lazy, p_orec_mixed, p_norec, p_ring)
//                2W+2 clwb, 4 sfence; a read-only transaction: 0 and 0
//   eager (p_cgl_eager, p_orec_eager, p_tlrw)
//                2W+2 clwb, W+3 sfence; read-only: 1 and 1 (begin)
// The optimized libraries (gp_, ip_; libs/persistent_options.h) against
// theirs (docs/algorithms.md): the sealed log (PTM_OPT_SEALED_LOG) takes
// one sfence off every formula (lazy: 3, but 4 in a transaction that
// allocates pool blocks; eager: W+2, read-only 0 and 0); and last-allocation
// tracking: a transaction
// that allocates a 256-byte block (64-byte aligned) and writes its 32 words
// costs exactly what allocating it alone costs (no log entry, clwb or sfence
// per write: the block's 4 lines are flushed once at commit, in both), where
// a p_ library pays every write (2 clwb, eager: 1 sfence, 1 log entry).
// Coarse-grained logging (ip_, PTM_OPT_COARSE_LOG; G = PTM_LOG_GRANULARITY,
// an entry takes L = 1 line for G <= 32, 2 for G = 64): the W words above
// are in W distinct chunks, so (L+1)W + 2 clwb, and
//   4 writes into one chunk        eager: 1 entry, L+4+2 clwb, 4 sfence
//                                  lazy:  1 entry, L+1+2 clwb, 4 sfence
//   1 write into each of 2 chunks  eager: 2 entries, 2L+2+2 clwb, 5 sfence
//                                  lazy:  2 entries, 2L+2+2 clwb, 4 sfence
//   a global word, then a chunk    eager: 1 entry (the global word is not
//                                  in the pool: undone from the volatile
//                                  log only), L+3 clwb, 4 sfence; lazy: 2
//                                  entries (the word's outside the record,
//                                  outside_entries.h), L+1+2 clwb, 4 sfence
// (ip_tlrw, fence pipelining: 4, 4 and 4 sfence). The log ring
// (PTM_OPT_LOG_RING, the lazy gp_/ip_ libraries) moves a commit's data
// lines (one clwb per entry of the pool's data) to the next writing commit,
// before its fence, and writes no idle status: E entries of L lines, P data
// lines of the previous writing commit: L*E + 1 + P clwb, 1 sfence (2 with pool
// blocks of more than 8 entries allocated; smaller ones are logged); with
// PTM_OPT_SKIP_REWRITTEN, P leaves out the previous commit's entries that
// this one logs again (same word or chunk). Under eADR
// (PTM_EADR=1, the test-only eADR copies) every clwb count is 0 and the sfences
// stay. Log staging (PTM_OPT_LOG_STAGE, the lazy gp_/ip_ libraries) streams
// a record's lines whole: W word entries take ceil(W/2) lines, not W (chunk
// entries and a word entry followed by a pad and a chunk are unchanged).
// Prints the measured figures.
//
//===----------------------------------------------------------------------===//

#include "libs/persistent_options.h" // the PTM_OPT_* defaults
#include "pool_test.h"

#include <algorithm>
#include <vector>

#include <cstring>

#ifndef PTM_EADR
#define PTM_EADR 0
#endif
#ifndef PTM_LOG_GRANULARITY
#define PTM_LOG_GRANULARITY 32
#endif

// Expected clwb: 0 under eADR.
static uint64_t flushes(uint64_t n) { return PTM_EADR ? 0 : n; }

static uint64_t global_word; // outside the pool: word entries even in ip_
alignas(64) static uint64_t global_words[8];

// "gp_orec_lazy" -> model "gp", algorithm "orec_lazy".
static bool has_prefix(const char *s, const char *p) {
  return strncmp(s, p, strlen(p)) == 0;
}

int main() {
  std::string path = temp_pool_path("counts");
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  auto *words = static_cast<uint64_t *>(ptm_root(4096));
  CHECK(words != nullptr);
  const char *lib = ptm_algorithm();
  // Which flush instruction ran (the counts are the same for each): the
  // CPU's strongest, or PTM_FLUSH's, which must have taken effect.
  const char *insn = ptm_flush_instruction();
  printf("flush instruction: %s\n", insn);
  const char *forced = getenv("PTM_FLUSH");
  if (forced && *forced && !PTM_EADR)
    CHECK(strcmp(insn, forced) == 0);
  if (PTM_EADR)
    CHECK(strcmp(insn, "none") == 0);
  bool optimized = has_prefix(lib, "gp_") || has_prefix(lib, "ip_");
  const char *alg = strchr(lib, '_') + 1;
  bool lazy = strcmp(alg, "cgl_eager") != 0 && strcmp(alg, "orec_eager") != 0 &&
              strcmp(alg, "tlrw") != 0;
  bool last_alloc = optimized && PTM_OPT_LAST_ALLOC;
  // Fence pipelining (gp_/ip_tlrw): each write's sfence rides on the next
  // access's lock acquisition; the last store is drained behind one sfence
  // at commit: begin 1 + drain 1 + commit 2.
  bool pipelined = optimized && PTM_OPT_FENCE_PIPELINE && !strcmp(alg, "tlrw");
  bool coarse = has_prefix(lib, "ip_") && PTM_OPT_COARSE_LOG;
  // Sealed log (gp_, ip_): one sfence fewer. Lazy: the entries and the
  // commit record behind one sfence (unless the transaction allocated pool
  // blocks); eager: the status goes active with the first entry, behind its
  // fence, so a read-only transaction pays nothing.
  const uint64_t sealed = optimized && PTM_OPT_SEALED_LOG ? 1 : 0;
  const bool ring =
      lazy && sealed && PTM_OPT_DEFERRED_FLUSH && PTM_OPT_LOG_RING;
  const uint64_t lazy_fences = ring ? 1 : 4 - sealed;
  const uint64_t G = PTM_LOG_GRANULARITY;
  // An entry's key: its chunk (coarse-grained logging) or its word.
  auto key = [&](const void *p) {
    auto a = reinterpret_cast<uintptr_t>(p);
    return coarse ? a & ~uintptr_t(G - 1) : a & ~uintptr_t(7);
  };
  // The log ring: the entries in the pool of the last writing commit, whose
  // data lines it left to the next (but those the next one logs again, with
  // PTM_OPT_SKIP_REWRITTEN).
  const bool skip_rewritten = ring && PTM_OPT_SKIP_REWRITTEN;
  std::vector<uintptr_t> prev;
  // A lazy commit's clwb: E entries taking ENTRY_LINES lines, one data line
  // per entry (the log ring: per distinct line of the last commit's entries
  // in the pool, keys IN_POOL).
  auto lazy_clwb = [&](uint64_t entry_lines, std::vector<uintptr_t> in_pool) {
    std::vector<uintptr_t> lines;
    for (uintptr_t k : prev)
      if (!skip_rewritten ||
          std::find(in_pool.begin(), in_pool.end(), k) == in_pool.end())
        if (std::find(lines.begin(), lines.end(), k & ~uintptr_t(63)) ==
            lines.end())
          lines.push_back(k & ~uintptr_t(63));
    uint64_t p = lines.size();
    uint64_t n =
        ring ? entry_lines + 1 + p : entry_lines + 1 + in_pool.size() + 1;
    prev = std::move(in_pool);
    return flushes(n);
  };
  const uint64_t L = coarse && G == 64 ? 2 : 1; // lines per entry
  // Log staging (PTM_OPT_LOG_STAGE, the lazy gp_/ip_ libraries): a record's
  // lines are streamed whole, so two word entries sharing a line count
  // once. The lines of E entries of one kind: chunk entries L each, word
  // entries 1 each, staged ceil(E/2).
  const bool staged = optimized && lazy && PTM_OPT_LOG_STAGE && !PTM_EADR;
  auto entry_lines = [&](uint64_t e) {
    return coarse ? L * e : staged ? (e + 1) / 2 : e;
  };
  // Warm-up: the thread's first transaction claims its slot.
  run_tx([&] { __ptm_write_8(&words[0], 1); });
  prev = {key(&words[0])};

  for (uint64_t w : {1, 2, 5, 10}) {
    std::vector<uintptr_t> keys;
    for (uint64_t i = 0; i < w; ++i)
      keys.push_back(key(&words[8 * i]));
    ptm_stats_t d = write_w_lines(words, w, ptm_algorithm());
    CHECK_EQ(d.commits, 1u);
    CHECK_EQ(d.clwb,
             lazy ? lazy_clwb(entry_lines(w), keys) : flushes((L + 1) * w + 2));
    CHECK_EQ(d.sfence, lazy ? lazy_fences : (pipelined ? 4 : w + 3) - sealed);
    CHECK_EQ(d.log_entries, w);
  }

  // Rewriting a word: lazy merges into its entry (W counts distinct words;
  // coarse: both words are in one chunk entry).
  if (lazy) {
    ptm_stats_t before, after;
    ptm_stats(&before);
    run_tx([&] {
      __ptm_write_8(&words[0], 5);
      __ptm_write_8(&words[0], 6);
      __ptm_write_4(&words[1], 7);
      __ptm_write_4(reinterpret_cast<char *>(&words[1]) + 4, 8);
      CHECK_EQ(__ptm_read_8(&words[0]), 6u);
      CHECK_EQ(__ptm_read_8(&words[1]), (8ull << 32) | 7u);
    });
    ptm_stats(&after);
    ptm_stats_t d = stats_delta(before, after);
    CHECK_EQ(d.clwb, coarse ? lazy_clwb(L, {key(&words[0])})
                            : lazy_clwb(entry_lines(2),
                                        {key(&words[0]), key(&words[1])}));
    CHECK_EQ(d.sfence, lazy_fences);
    CHECK_EQ(d.log_entries, coarse ? 1u : 2u);
    CHECK_EQ(words[0], 6u);
    CHECK_EQ(words[1], (8ull << 32) | 7u);
  }

  // Writes outside the pool (a global array and a DRAM block): logged for
  // rollback, never flushed (only the pool's data survives a crash). Lazy:
  // W word entries outside the slot's record (outside_entries.h), no record;
  // eager: only the volatile undo log records them. Either way the
  // transaction costs what a read-only one does.
  {
    ptm_stats_t d = write_outside_pool(global_words);
    CHECK_EQ(d.log_entries, lazy ? 16u : 0u);
    CHECK_EQ(d.clwb, flushes(lazy ? 0u : 1 - sealed));
    CHECK_EQ(d.sfence, lazy ? 0u : 1 - sealed);
  }

  // Read-only: lazy flushes and fences nothing; eager marks itself active
  // at begin (Listing 1 line 23-24) and returns at commit.
  uint64_t sum = 0;
  ptm_stats_t d = read_ten_lines(words, sum);
  ptm_stats_t before, after; // (the cases below)
  CHECK_EQ(d.clwb, flushes(lazy ? 0u : 1 - sealed));
  CHECK_EQ(d.sfence, lazy ? 0u : 1 - sealed);
  CHECK(sum > 0);

  if (coarse) {
    // Chunk-aligned (the root is 64-byte aligned): chunks c0, c1 = c0 + G.
    auto *c0 = reinterpret_cast<unsigned char *>(&words[256]);
    auto count = [&](const char *what, auto body) {
      ptm_stats_t b, a;
      ptm_stats(&b);
      run_tx(body);
      ptm_stats(&a);
      ptm_stats_t x = stats_delta(b, a);
      printf("%s %s: clwb %llu sfence %llu log_entries %llu\n", ptm_algorithm(),
             what, (unsigned long long)x.clwb, (unsigned long long)x.sfence,
             (unsigned long long)x.log_entries);
      return x;
    };
    // Four 4-byte writes into one chunk (then read back from the log).
    ptm_stats_t x = count("4 writes, 1 chunk", [&] {
      for (uint32_t k = 0; k < 4; ++k)
        __ptm_write_4(reinterpret_cast<uint32_t *>(c0 + k * (G / 4)), k + 40);
      for (uint32_t k = 0; k < 4; ++k)
        CHECK_EQ(__ptm_read_4(reinterpret_cast<uint32_t *>(c0 + k * (G / 4))),
                 k + 40);
    });
    for (uint32_t k = 0; k < 4; ++k)
      CHECK_EQ(*reinterpret_cast<uint32_t *>(c0 + k * (G / 4)), k + 40);
    CHECK_EQ(x.log_entries, 1u);
    CHECK_EQ(x.clwb, lazy ? lazy_clwb(L, {key(c0)}) : flushes(L + 4 + 2));
    CHECK_EQ(x.sfence, lazy ? lazy_fences : 4 - sealed);

    // One write into each of two chunks.
    x = count("2 chunks", [&] {
      __ptm_write_8(reinterpret_cast<uint64_t *>(c0 + 8), 7);
      __ptm_write_8(reinterpret_cast<uint64_t *>(c0 + G), 8);
    });
    CHECK_EQ(*reinterpret_cast<uint64_t *>(c0 + 8), 7u);
    CHECK_EQ(*reinterpret_cast<uint64_t *>(c0 + G), 8u);
    CHECK_EQ(x.log_entries, 2u);
    CHECK_EQ(x.clwb, lazy ? lazy_clwb(2 * L, {key(c0), key(c0 + G)})
                          : flushes(2 * L + 2 + 2));
    CHECK_EQ(x.sfence, lazy ? lazy_fences : (pipelined ? 4u : 5u) - sealed);

    // One chunk of another line. The log ring writes back the last commit's
    // data lines, each once: its two chunks share a line when G < 64.
    auto *c2 = c0 + 128;
    x = count("another line",
              [&] { __ptm_write_8(reinterpret_cast<uint64_t *>(c2), 10); });
    CHECK_EQ(*reinterpret_cast<uint64_t *>(c2), 10u);
    CHECK_EQ(x.log_entries, 1u);
    CHECK_EQ(x.clwb, lazy ? lazy_clwb(L, {key(c2)}) : flushes(L + 1 + 2));
    CHECK_EQ(x.sfence, lazy ? lazy_fences : 4u - sealed);

    // A word outside the pool keeps a word entry (lazy: outside the slot's
    // record, which holds the chunk entry alone; eager: no entry).
    global_word = 1;
    x = count("global + chunk", [&] {
      __ptm_write_8(&global_word, __ptm_read_8(&global_word) + 1);
      __ptm_write_8(reinterpret_cast<uint64_t *>(c0), 9);
    });
    CHECK_EQ(global_word, 2u);
    CHECK_EQ(*reinterpret_cast<uint64_t *>(c0), 9u);
    CHECK_EQ(x.log_entries, lazy ? 2u : 1u);
    CHECK_EQ(x.clwb, lazy ? lazy_clwb(L, {key(c0)}) : flushes(L + 1 + 2));
    CHECK_EQ(x.sfence, lazy ? lazy_fences : 4u - sealed);
  }

  // Last-allocation tracking. E log entries (the heap's metadata words),
  // L = 4 lines of the block: 2E+2+L clwb; lazy 4 sfence, eager E+3 (the
  // log ring: L*E + 1 + 4 + P clwb, 2 sfence; a block of at most 8 entries,
  // here 8 chunks of 32 bytes or 4 of 64, is logged into the record: its E
  // include them, L*E + 1 + P clwb, 1 sfence).
  const uint64_t kWords = 32;
  const bool block_logged = ring && kWords * 8 <= 8 * (coarse ? G : 8);
  ptm_stats_t alloc_only, alloc_write;
  // (round -1 warms the size class up: its first allocation writes more
  // allocator metadata than the later ones)
  uint64_t alloc_prev[2] = {0, 0};
  // Two writing commits after a free (the log ring's parked frees settled
  // at the second's end); the next commit flushes the last one's line.
  auto settle_parked_frees = [&] {
    for (uint64_t i = 1; i <= 2; ++i)
      run_tx([&] { __ptm_write_8(&words[0], i); });
    prev = {key(&words[0])};
  };
  for (int round = -1; round < 2; ++round) {
    bool fill = round == 1;
    if (round >= 0)
      alloc_prev[round] = prev.size();
    ptm_stats(&before);
    void *block = nullptr;
    run_tx([&] {
      block = ptm_aligned_alloc(64, kWords * 8);
      CHECK(block != nullptr);
      auto *b = static_cast<uint64_t *>(block);
      for (uint64_t i = 0; fill && i < kWords; ++i)
        __ptm_write_8(&b[i], i + 1);
      for (uint64_t i = 0; fill && i < kWords; ++i)
        CHECK_EQ(__ptm_read_8(&b[i]), i + 1);
    });
    ptm_stats(&after);
    if (round >= 0)
      (fill ? alloc_write : alloc_only) = stats_delta(before, after);
    for (uint64_t i = 0; fill && i < kWords; ++i)
      CHECK_EQ(static_cast<uint64_t *>(block)[i], i + 1);
    // (the free's entries are the data lines the next commit flushes; the
    // log ring: its blocks are parked until a durable floor passes it,
    // docs/algorithms.md "Freed blocks": two commits after it the floor has,
    // and the end of the second settles them, so that every round's
    // allocation finds the same heap)
    run_tx([&] { ptm_free(block); });
    settle_parked_frees();
  }
  for (const ptm_stats_t *t : {&alloc_only, &alloc_write}) {
    uint64_t e = t->log_entries;
    printf("%s alloc%s: clwb %llu sfence %llu log_entries %llu\n",
           ptm_algorithm(), t == &alloc_write ? "+32 writes" : "",
           (unsigned long long)t->clwb, (unsigned long long)t->sfence,
           (unsigned long long)e);
    // (coarse eager: a metadata chunk entry may cover several written words)
    if (ring)
      CHECK_EQ(t->clwb, flushes(entry_lines(e) + 1 + (block_logged ? 0 : 4) +
                                alloc_prev[t == &alloc_write]));
    else if (!coarse || lazy)
      CHECK_EQ(t->clwb, flushes(entry_lines(e) + e + 2 + 4));
    if (!pipelined) // (pipelined: depends on which metadata words share locks)
      CHECK_EQ(t->sfence,
               lazy ? (ring ? (block_logged ? 1 : 2) : 4) : e + 3 - sealed);
  }
  uint64_t extra = last_alloc ? 0 : kWords;
  CHECK_EQ(alloc_write.log_entries - alloc_only.log_entries, extra);
  if (!ring && !staged) // (the ring: the previous commits' lines differ)
    CHECK_EQ(alloc_write.clwb - alloc_only.clwb, flushes(2 * extra));
  if (!pipelined)
    CHECK_EQ(alloc_write.sfence - alloc_only.sfence, lazy ? 0 : extra);

  // Every allocation of the attempt, not only its last (captured_blocks.h):
  // the 32 words of a block written after a second block was allocated cost
  // nothing either (with tracking; a p_ library pays every write).
  ptm_stats_t two_only{}, two_write{};
  for (int round = -1; round < 2; ++round) {
    bool fill = round == 1;
    ptm_stats(&before);
    void *block = nullptr, *newer = nullptr;
    run_tx([&] {
      block = ptm_aligned_alloc(64, kWords * 8);
      newer = ptm_aligned_alloc(64, 64);
      CHECK(block != nullptr && newer != nullptr);
      auto *b = static_cast<uint64_t *>(block);
      for (uint64_t i = 0; fill && i < kWords; ++i)
        __ptm_write_8(&b[i], i + 1);
      for (uint64_t i = 0; fill && i < kWords; ++i)
        CHECK_EQ(__ptm_read_8(&b[i]), i + 1);
      __ptm_write_8(newer, 7);
    });
    ptm_stats(&after);
    if (round >= 0)
      (fill ? two_write : two_only) = stats_delta(before, after);
    for (uint64_t i = 0; fill && i < kWords; ++i)
      CHECK_EQ(static_cast<uint64_t *>(block)[i], i + 1);
    CHECK_EQ(*static_cast<uint64_t *>(newer), 7u);
    run_tx([&] {
      ptm_free(block);
      ptm_free(newer);
    });
    settle_parked_frees();
  }
  printf("%s 2 allocs+32 writes to the older: log_entries %llu (%llu without "
         "the writes)\n",
         ptm_algorithm(), (unsigned long long)two_write.log_entries,
         (unsigned long long)two_only.log_entries);
  CHECK_EQ(two_write.log_entries - two_only.log_entries, extra);
  if (!pipelined)
    CHECK_EQ(two_write.sfence - two_only.sfence, lazy ? 0 : extra);

  ptm_close();
  unlink(path.c_str());
  return check_result("counts");
}
