//===- test_tx_size.cpp - transactions larger than a thread slot ----------===//
//
// Transactions of any size (docs/pool.md "Log extensions"), on a pool with
// the default settings (1 GiB, 64 slots of 256 KiB: 8,188 log entries):
//
//   pool_tx_size_<lib> rewrite WORDS ROUNDS
//       ROUNDS transactions, each rewriting all WORDS words of an array in
//       the pool (round r: word i = value(r, i)) and reading back, inside
//       the transaction, words it wrote before its log grew; after each, the
//       array is checked word by word and `ptm_stats` must show the log
//       entries; the slot links no extension afterwards (ptm-pool check).
//   pool_tx_size_<lib> kill WORDS KILLS PTM_POOL_TOOL
//       KILLS times: a child repeats those transactions and is killed with
//       SIGKILL in the middle of one (after it reports the round it begins,
//       at a point varied by count: the parent first reads a number of
//       progress lines the child prints as it goes); the reopened pool holds
//       a whole round, never a mix, and at least every round the child
//       acknowledged; ptm-pool check passes.
//   pool_tx_size_<lib> threads WORDS ROUNDS
//       2 threads rewrite the same array, each ROUNDS times: transactions
//       that conflict and roll back with their log extended; the array
//       holds a whole round at the end, and the rounds count exactly.
//
// Every mode ends with "tx size: all checks passed" when they do.
//
//===----------------------------------------------------------------------===//
#include "child_run.h"
#include "pool_test.h"

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <pthread.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct Root {
  uint64_t *words; // the array
  uint64_t count;  // its words
  uint64_t round;  // the round the array holds
  uint64_t rounds; // rounds committed (threads)
};

uint64_t value(uint64_t round, uint64_t i) {
  return round * 0x9e3779b97f4a7c15ull ^ (i * 0xd1b54a32d192ed03ull + 1);
}

// The pool at PATH (created with an array of WORDS words at round 0 if new);
// a failed check and nullptr if it cannot be opened.
Root *open_root(const std::string &path, uint64_t words) {
  // (a new pool: the default size, 1 GiB, and default slots)
  size_t size = access(path.c_str(), F_OK) == 0 ? 0 : size_t(1) << 30;
  int rc = ptm_open(path.c_str(), size);
  CHECK_EQ(rc, 0);
  if (rc != 0)
    return nullptr;
  auto *r = static_cast<Root *>(ptm_root(sizeof(Root)));
  CHECK(r != nullptr);
  if (!r || r->words)
    return r;
  // A new pool: the array at round 0 (a fresh block, written in place and
  // made durable before the root names it).
  auto *a = static_cast<uint64_t *>(ptm_malloc(words * 8));
  CHECK(a != nullptr);
  if (!a)
    return nullptr;
  for (uint64_t i = 0; i < words; ++i)
    a[i] = value(0, i);
  ptm_sync();
  run_tx([&] {
    __ptm_write_8(reinterpret_cast<uint64_t *>(&r->words),
                  reinterpret_cast<uint64_t>(a));
    __ptm_write_8(&r->count, words);
  });
  return r;
}

// One transaction: round ROUND into every word. Reads back, in the
// transaction, the first word and a word written after the log grew.
void rewrite(Root *r, uint64_t round, bool count_round) {
  uint64_t *a = r->words, n = r->count;
  bool read_back = true;
  run_tx([&] {
    read_back = true;
    for (uint64_t i = 0; i < n; ++i)
      __ptm_write_8(&a[i], value(round, i));
    read_back &= __ptm_read_8(&a[0]) == value(round, 0);
    read_back &= __ptm_read_8(&a[n - 1]) == value(round, n - 1);
    read_back &= __ptm_read_8(&a[n / 2]) == value(round, n / 2);
    __ptm_write_8(&r->round, round);
    if (count_round)
      __ptm_write_8(&r->rounds, __ptm_read_8(&r->rounds) + 1);
  });
  CHECK(read_back);
}

// The array holds one whole round, R's.
bool whole_round(const Root *r) {
  uint64_t bad = 0, first_bad = 0;
  for (uint64_t i = 0; i < r->count; ++i)
    if (r->words[i] != value(r->round, i) && bad++ == 0)
      first_bad = i;
  if (bad)
    fprintf(stderr,
            "round %llu: %llu of %llu words hold something else (first: "
            "word %llu)\n",
            (unsigned long long)r->round, (unsigned long long)bad,
            (unsigned long long)r->count, (unsigned long long)first_bad);
  return bad == 0;
}

int rewrite_mode(uint64_t words, uint64_t rounds) {
  std::string path = temp_pool_path("txsize");
  Root *r = open_root(path, words);
  if (!r)
    return check_result("tx size");
  for (uint64_t round = 1; round <= rounds; ++round) {
    ptm_stats_t before, after;
    ptm_stats(&before);
    rewrite(r, round, false);
    ptm_stats(&after);
    uint64_t logged = after.log_entries - before.log_entries;
    CHECK(logged >= words / 4); // (chunk entries hold 4 words at G = 32)
    CHECK_EQ(r->round, round);
    CHECK(whole_round(r));
  }
  ptm_close();
  r = open_root(path, words);
  if (r) {
    CHECK_EQ(r->round, rounds);
    CHECK(whole_round(r));
    ptm_close();
  }
  unlink(path.c_str());
  return check_result("tx size");
}

// The child of `kill`: rounds from the pool's on, one line per 4096 words
// written ("w"), "begin R" before a round, "ack R" after its commit.
int child(const std::string &path, uint64_t words) {
  Root *r = open_root(path, words);
  if (!r)
    return 2;
  setvbuf(stdout, nullptr, _IONBF, 0);
  for (uint64_t round = r->round + 1;; ++round) {
    printf("begin %llu\n", (unsigned long long)round);
    uint64_t *a = r->words, n = r->count;
    run_tx([&] {
      for (uint64_t i = 0; i < n; ++i) {
        __ptm_write_8(&a[i], value(round, i));
        if (i % 4096 == 4095)
          (void)!write(1, "w\n", 2);
      }
      __ptm_write_8(&r->round, round);
    });
    printf("ack %llu\n", (unsigned long long)round);
  }
}

int kill_mode(uint64_t words, unsigned kills, const std::string &tool) {
  std::string path = temp_pool_path("txkill");
  Root *r = open_root(path, words);
  if (!r)
    return check_result("tx size");
  ptm_close();
  uint64_t acked = 0;
  uint64_t lines_per_round = words / 4096 + 2;
  for (unsigned k = 0; k < kills; ++k) {
    int out[2];
    CHECK_EQ(pipe(out), 0);
    fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
      dup2(out[1], 1);
      close(out[0]);
      close(out[1]);
      execl("/proc/self/exe", "/proc/self/exe", "child", path.c_str(),
            std::to_string(words).c_str(), (char *)nullptr);
      _exit(127);
    }
    close(out[1]);
    FILE *in = fdopen(out[0], "r");
    // The kill lands after this many lines: into round 2 of the child at a
    // point that moves through the round from kill to kill.
    uint64_t target = lines_per_round + 1 + (k * 7919) % lines_per_round;
    uint64_t seen = 0;
    char line[64];
    while (seen < target && fgets(line, sizeof line, in)) {
      unsigned long long n;
      if (sscanf(line, "ack %llu", &n) == 1)
        acked = n;
      ++seen;
    }
    kill(pid, SIGKILL);
    while (fgets(line, sizeof line, in)) { // (acknowledged before the kill)
      unsigned long long n;
      if (sscanf(line, "ack %llu", &n) == 1)
        acked = n;
    }
    fclose(in);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    CHECK_EQ(seen, target);
    r = open_root(path, words);
    if (!r)
      break;
    fprintf(stderr,
            "kill %u after %llu lines: the pool holds round %llu, "
            "%llu acknowledged\n",
            k, (unsigned long long)seen, (unsigned long long)r->round,
            (unsigned long long)acked);
    CHECK(r->round >= acked);
    CHECK(r->round <= acked + 1);
    CHECK(whole_round(r));
    ptm_close();
    CHECK(pool_tool_check(tool, path, 300));
  }
  unlink(path.c_str());
  return check_result("tx size");
}

struct Shared {
  Root *root;
  uint64_t rounds;
  unsigned id;
};

void *thread_main(void *p) {
  auto *s = static_cast<Shared *>(p);
  for (uint64_t k = 0; k < s->rounds; ++k)
    rewrite(s->root, 1000 * (s->id + 1) + k, true);
  return nullptr;
}

int threads_mode(uint64_t words, uint64_t rounds) {
  std::string path = temp_pool_path("txthreads");
  Root *r = open_root(path, words);
  if (!r)
    return check_result("tx size");
  pthread_t t[2];
  Shared s[2] = {{r, rounds, 0}, {r, rounds, 1}};
  for (int i = 0; i < 2; ++i)
    pthread_create(&t[i], nullptr, thread_main, &s[i]);
  for (int i = 0; i < 2; ++i)
    pthread_join(t[i], nullptr);
  CHECK_EQ(r->rounds, 2 * rounds);
  CHECK(whole_round(r));
  ptm_close();
  unlink(path.c_str());
  return check_result("tx size");
}

} // namespace

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "child" && argc == 4)
    return child(argv[2], strtoull(argv[3], nullptr, 10));
  if (mode == "rewrite" && argc == 4)
    return rewrite_mode(strtoull(argv[2], nullptr, 10),
                        strtoull(argv[3], nullptr, 10));
  if (mode == "kill" && argc == 5)
    return kill_mode(strtoull(argv[2], nullptr, 10),
                     unsigned(strtoul(argv[3], nullptr, 10)), argv[4]);
  if (mode == "threads" && argc == 4)
    return threads_mode(strtoull(argv[2], nullptr, 10),
                        strtoull(argv[3], nullptr, 10));
  fprintf(stderr,
          "usage: %s rewrite WORDS ROUNDS | kill WORDS KILLS "
          "PTM_POOL_TOOL | threads WORDS ROUNDS\n",
          argv[0]);
  return 2;
}
