//===- pool_test.h - helpers of the pool tests ------------------*- C++ -*-===//
//
// Temporary pool paths (removed at exit), statistics deltas, transactions
// writing W lines or outside the pool, stderr capture, file contents and
// hashes.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_POOL_POOL_TEST_H
#define PTM_TEST_POOL_POOL_TEST_H

#include "../unit/check.h"
#include "ptm_abi.h"
#include "runtime/pool/pool_file.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

// A fresh path under $TMPDIR (or /tmp), not created.
inline std::string temp_pool_path(const char *tag) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  static int counter;
  char buf[512];
  snprintf(buf, sizeof buf, "%s/ptm-test-%s-%d-%d.pool", dir, tag, getpid(),
           counter++);
  unlink(buf);
  return buf;
}

// The bytes of the file at PATH (none if it cannot be read).
inline std::vector<unsigned char> read_file(const std::string &path) {
  std::vector<unsigned char> out;
  FILE *f = fopen(path.c_str(), "rb");
  if (!f)
    return out;
  unsigned char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0)
    out.insert(out.end(), buf, buf + n);
  fclose(f);
  return out;
}

// The sum of the words of ARRAY (a bank's accounts), read in one
// transaction.
template <size_t N> uint64_t tx_sum(const uint64_t (&array)[N]) {
  uint64_t sum = 0;
  run_tx([&] {
    sum = 0;
    for (const uint64_t &w : array)
      sum += __ptm_read_8(&w);
  });
  return sum;
}

// B - A, field by field (ptm_stats_t is a sequence of uint64_t).
inline ptm_stats_t stats_delta(const ptm_stats_t &a, const ptm_stats_t &b) {
  ptm_stats_t d;
  const uint64_t *pa = &a.commits, *pb = &b.commits;
  uint64_t *pd = &d.commits;
  for (size_t i = 0; i < sizeof d / sizeof(uint64_t); ++i)
    pd[i] = pb[i] - pa[i];
  return d;
}

// A transaction that writes 16 words outside the pool, 8 into GLOBAL8 (a
// static array) and 8 into a DRAM block: the statistics it added, its
// values checked.
inline ptm_stats_t write_outside_pool(uint64_t *global8) {
  auto *heap = static_cast<uint64_t *>(aligned_alloc(64, 8 * sizeof(uint64_t)));
  CHECK(heap != nullptr);
  for (int i = 0; i < 8; ++i)
    heap[i] = global8[i] = 0;
  ptm_stats_t before, after;
  ptm_stats(&before);
  run_tx([&] {
    for (uint64_t i = 0; i < 8; ++i) {
      __ptm_write_8(&global8[i], i + 1);
      __ptm_write_8(&heap[i], i + 2);
    }
  });
  ptm_stats(&after);
  for (uint64_t i = 0; i < 8; ++i) {
    CHECK_EQ(global8[i], i + 1);
    CHECK_EQ(heap[i], i + 2);
  }
  free(heap);
  ptm_stats_t d = stats_delta(before, after);
  printf("%s 16 words outside the pool: clwb %llu sfence %llu\n",
         ptm_algorithm(), (unsigned long long)d.clwb,
         (unsigned long long)d.sfence);
  return d;
}

// A transaction that adds i + 1 to WORDS[8 * i] for i < W (W words, each on
// a line of its own): the statistics it added, printed as WHO's "W=".
inline ptm_stats_t write_w_lines(uint64_t *words, uint64_t w, const char *who) {
  ptm_stats_t before, after;
  ptm_stats(&before);
  run_tx([&] {
    for (uint64_t i = 0; i < w; ++i)
      __ptm_write_8(&words[8 * i], __ptm_read_8(&words[8 * i]) + i + 1);
  });
  ptm_stats(&after);
  ptm_stats_t d = stats_delta(before, after);
  printf("%s W=%llu: clwb %llu sfence %llu log_entries %llu aborts %llu\n", who,
         (unsigned long long)w, (unsigned long long)d.clwb,
         (unsigned long long)d.sfence, (unsigned long long)d.log_entries,
         (unsigned long long)d.aborts);
  return d;
}

// A read-only transaction summing WORDS[8 * i] for i < 10 (ten lines): the
// statistics it added; the sum in SUM.
inline ptm_stats_t read_ten_lines(const uint64_t *words, uint64_t &sum) {
  ptm_stats_t before, after;
  ptm_stats(&before);
  run_tx([&] {
    sum = 0;
    for (int i = 0; i < 10; ++i)
      sum += __ptm_read_8(&words[8 * i]);
  });
  ptm_stats(&after);
  ptm_stats_t d = stats_delta(before, after);
  printf("%s read-only: clwb %llu sfence %llu\n", ptm_algorithm(),
         (unsigned long long)d.clwb, (unsigned long long)d.sfence);
  return d;
}

// N bytes at the pool address ADDR as the file at PATH holds them, read with
// pread: the page cache, which under buffered durability (and with sp3) the
// PM view writes, not the pool's DRAM copy (the pool is mapped at the base
// its header records, so an address's file offset is address - base).
inline void read_file_at(const std::string &path, const void *addr, void *dst,
                         size_t n) {
  ptm::pool::PoolHeader h;
  CHECK_EQ(ptm::pool::read_pool_header(path.c_str(), 0, &h), 0);
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  CHECK(fd >= 0);
  off_t at = off_t(reinterpret_cast<uintptr_t>(addr) - h.base);
  CHECK_EQ(pread(fd, dst, n, at), ssize_t(n));
  close(fd);
}

// FNV-1a of the whole file (and its size): "the file is unchanged".
inline uint64_t file_hash(const std::string &path) {
  uint64_t h = 0xcbf29ce484222325ull;
  FILE *f = fopen(path.c_str(), "rb");
  if (!f)
    return 0;
  unsigned char buf[65536];
  size_t n, total = 0;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
    for (size_t i = 0; i < n; ++i) {
      h ^= buf[i];
      h *= 0x100000001b3ull;
    }
    total += n;
  }
  fclose(f);
  return h ^ total;
}

// Captures what the process writes to stderr between start() and stop().
struct StderrCapture {
  int saved = -1;
  FILE *tmp = nullptr;
  void start() {
    fflush(stderr);
    tmp = tmpfile();
    saved = dup(2);
    dup2(fileno(tmp), 2);
  }
  std::string stop() {
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::string out;
    rewind(tmp);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, tmp)) > 0)
      out.append(buf, n);
    fclose(tmp);
    return out;
  }
};

#endif // PTM_TEST_POOL_POOL_TEST_H
