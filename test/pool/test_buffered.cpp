//===- test_buffered.cpp - buffered durability: prefix, sync, errors ------===//
//
// PTM_DURABILITY=buffered[:MS] (runtime/pool/durability.h) on a lazy gp_/ip_
// library or an eager cgl one (gp_cgl_eager, ip_cgl_eager):
//
//   test_buffered ITERATIONS SEED [PTM_POOL_TOOL]
//     errors    malformed PTM_DURABILITY values are refused by ptm_open with a
//               message and create nothing; ptm_sync inside a transaction is
//               refused
//     close     transfers under buffered durability (their commits issue no
//               clwb and no sfence), ptm_close, reopened under strict
//               durability: every transfer is in the file
//     exit      a child commits transfers and returns from main without
//               ptm_close: every one of them is in the file (the runtime
//               syncs at exit)
//     budget    under buffered:60000 (the persister wakes only when asked),
//               transactions each rewrite 8 KiB of a block and move a
//               transfer, queueing 19 MiB or more: the queue passes its kick
//               size about 40 times, and the persister takes it each time
//               while the thread goes on; then two transactions each
//               allocate and fill a 9 MiB block (queued whole) in place of
//               the last: each passes the 8 MiB budget on its own, and its
//               thread waits until the persister has taken its queue; after
//               ptm_close every transfer and the last block's contents are
//               in the file, and the committing thread issued no clwb and no
//               sfence
//     kick      under buffered:60000, transactions each rewrite 8 KiB of a
//               block and move a transfer until the thread's queue has
//               passed its kick size (512 KiB) and no further: the persister
//               writes them to the file without ptm_sync, long before its
//               interval (next_id, read from the file with pread, moves;
//               the only clock is a 30-s guard against a hang, half the
//               60-s interval, where a kicked round takes milliseconds); no
//               clwb and no sfence by the committing thread
//     large     a transaction allocates and fills a block larger than a
//               thread slot's log (the persister writes it to the file
//               before the record of that transaction): its bytes are there
//     crashes   ITERATIONS times, a child runs transfers at 2 threads (each
//               also allocates a note and frees its previous one) under
//               buffered:1 and acknowledges, after every 16th transfer, the
//               id of its last one once ptm_sync has returned; the parent
//               SIGKILLs it after a seeded count of acknowledgements (a
//               SIGKILL drops the DRAM copy: only what the persister wrote
//               survives), reopens the pool and checks that the file holds
//               a prefix of the transfers (the total is conserved, no record
//               of a transfer at or past next_id, the last one before it
//               whole), every acknowledged transfer, the notes, and
//               `ptm-pool check`
//
//   test_buffered refused       (a library that cannot defer durability):
//                               ptm_open under buffered fails with -ENOTSUP
//                               and a message naming the library
//
//===----------------------------------------------------------------------===//

#include "runtime/pool/pool_file.h"
#include "transfer_load.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/wait.h>
#include <thread>
#include <vector>

constexpr uint64_t kRecords = 1 << 14;
constexpr uint64_t kSyncEvery = 16;

struct Root {
  uint64_t next_id;
  uint64_t accounts[kAccounts];
  Note *notes[2];
  uint64_t *big;
  uint64_t big_words;
  Record records[kRecords];
};

static void set_durability(const char *mode) {
  if (mode)
    setenv("PTM_DURABILITY", mode, 1);
  else
    unsetenv("PTM_DURABILITY");
}

static void create_pool(const std::string &path) {
  set_durability(nullptr);
  create_transfer_pool<Root>(path);
}

// A new pool at PATH of the transfers' layout, opened under MODE: its root.
static Root *create_and_open(const std::string &path, const char *mode) {
  create_pool(path);
  set_durability(mode);
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  return static_cast<Root *>(ptm_root(0));
}

// Reopens PATH under strict durability and checks that it holds a prefix of
// the transfers that includes every id of ACKS; returns next_id.
static uint64_t verify(const std::string &path,
                       const std::vector<uint64_t> &acks, const char *when) {
  set_durability(nullptr);
  int rc = ptm_open(path.c_str(), 0);
  CHECK_EQ(rc, 0);
  if (rc != 0)
    return 0;
  auto *root = static_cast<Root *>(ptm_root(0));
  CHECK(root != nullptr);
  check_total(root, when);
  uint64_t next = root->next_id;
  int beyond = 0;
  for (const Record &r : root->records)
    if (r.id_plus_1 > next && ++beyond < 5)
      fprintf(stderr, "%s: transfer %llu is in the file, next_id is %llu\n",
              when, (unsigned long long)(r.id_plus_1 - 1),
              (unsigned long long)next);
  CHECK_EQ(beyond, 0);
  if (next > 0) // the last transfer of the prefix is whole
    CHECK_EQ(root->records[(next - 1) % kRecords].id_plus_1, next);
  int missing = 0;
  for (uint64_t id : acks) {
    bool ok = id < next && (id + kRecords < next ||
                            root->records[id % kRecords].id_plus_1 == id + 1);
    if (!ok && ++missing < 5)
      fprintf(stderr, "%s: synced transfer %llu missing (next_id %llu)\n", when,
              (unsigned long long)id, (unsigned long long)next);
  }
  CHECK_EQ(missing, 0);
  for (uint64_t t = 0; t < 2; ++t) {
    Note *n = root->notes[t];
    if (n && !(n->thread == t && n->id < next)) {
      fprintf(stderr, "%s: note of thread %llu is damaged\n", when,
              (unsigned long long)t);
      CHECK(false);
    }
  }
  ptm_close();
  return next;
}

static void errors() {
  std::string path = temp_pool_path("buffered-errors");
  const char *bad[] = {"bogus",         "buffered:",   "buffered:0",
                       "buffered:10ms", "buffered:-5", "buffered:60001",
                       "Buffered",      "buffered 10", "strict:10"};
  for (const char *mode : bad) {
    set_durability(mode);
    StderrCapture cap;
    cap.start();
    int rc = ptm_open(path.c_str(), 64 << 20);
    std::string err = cap.stop();
    CHECK_EQ(rc, -EINVAL);
    CHECK(err.find("PTM_DURABILITY='" + std::string(mode) + "'") !=
          std::string::npos);
    CHECK(access(path.c_str(), F_OK) != 0); // nothing created
  }
  set_durability("buffered:5");
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  CHECK_EQ(ptm_sync(), 0);
  int in_tx = 0;
  StderrCapture cap;
  cap.start();
  run_tx([&] { in_tx = ptm_sync(); });
  std::string err = cap.stop();
  CHECK_EQ(in_tx, -EINVAL);
  CHECK(err.find("ptm_sync inside a transaction") != std::string::npos);
  ptm_close();
  set_durability(nullptr);
  unlink(path.c_str());
}

static void clean_close() {
  std::string path = temp_pool_path("buffered-close");
  auto *root = create_and_open(path, "buffered");
  std::mt19937 rng(7);
  constexpr uint64_t kTransfers = 3000;
  transfer(root, rng, 0); // (its slot claim writes and fences)
  ptm_stats_t before, after;
  ptm_stats(&before);
  for (uint64_t i = 1; i < kTransfers; ++i)
    transfer(root, rng, 0);
  ptm_stats(&after);
  // The committing thread flushes and fences nothing (the persister's
  // thread runs no transaction: its counts are not in the totals).
  // (at least next_id, the record and the note's slot are logged)
  CHECK_EQ(after.commits - before.commits, kTransfers - 1);
  CHECK_EQ(after.clwb - before.clwb, 0u);
  CHECK_EQ(after.sfence - before.sfence, 0u);
  CHECK(after.log_entries - before.log_entries >= 3 * (kTransfers - 1));
  ptm_close();
  CHECK_EQ(verify(path, {}, "close"), kTransfers);
  unlink(path.c_str());
}

static int child_exit(const char *path, uint64_t n) {
  set_durability("buffered:60000"); // nothing written before the exit
  if (ptm_open(path, 0) != 0)
    return 3;
  auto *root = static_cast<Root *>(ptm_root(0));
  std::mt19937 rng(11);
  for (uint64_t i = 0; i < n; ++i)
    transfer(root, rng, 1);
  return 0; // no ptm_close
}

static void exit_without_close(const char *self) {
  std::string path = temp_pool_path("buffered-exit");
  create_pool(path);
  constexpr uint64_t kTransfers = 2000;
  pid_t pid = fork();
  if (pid == 0) {
    execl("/proc/self/exe", self, "child-exit", path.c_str(), "2000",
          (char *)nullptr);
    _exit(5);
  }
  int status = 0;
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK_EQ(verify(path, {}, "exit"), kTransfers);
  unlink(path.c_str());
}

// The queue's tests: a zeroed block of WORDS words linked as ROOT's big
// block, in one transaction; then transactions that each rewrite all of it
// (T: the transaction's number, in every word), each queueing WORDS * 8
// bytes or more.
static void attach_big(Root *root, uint64_t words) {
  run_tx([&] {
    auto *big = static_cast<uint64_t *>(ptm_calloc(words, 8));
    if (!big)
      _exit(6);
    __ptm_write_8(reinterpret_cast<uint64_t *>(&root->big),
                  reinterpret_cast<uint64_t>(big));
    __ptm_write_8(&root->big_words, words);
  });
}
static void rewrite_big(Root *root, uint64_t t, uint64_t words) {
  run_tx([&] {
    for (uint64_t i = 0; i < words; ++i)
      __ptm_write_8(&root->big[i], t * words + i);
  });
}

static void budget() {
  std::string path = temp_pool_path("buffered-budget");
  auto *root = create_and_open(path, "buffered:60000");
  constexpr uint64_t kWords = (8u << 10) / 8, kTxs = 1600;
  constexpr uint64_t kBlockWords = (9u << 20) / 8, kBlocks = 2;
  std::mt19937 rng(5);
  attach_big(root, kWords);
  ptm_stats_t before, after;
  ptm_stats(&before);
  for (uint64_t t = 1; t <= kTxs; ++t) {
    rewrite_big(root, t, kWords);
    transfer(root, rng, 0);
  }
  for (uint64_t b = 1; b <= kBlocks; ++b) {
    run_tx([&] {
      auto *blk = static_cast<uint64_t *>(ptm_malloc(kBlockWords * 8));
      if (!blk)
        _exit(6);
      for (uint64_t i = 0; i < kBlockWords; ++i)
        __ptm_write_8(&blk[i], b * kBlockWords + i);
      auto *old = reinterpret_cast<uint64_t *>(&root->big);
      ptm_free(reinterpret_cast<void *>(__ptm_read_8(old)));
      __ptm_write_8(old, reinterpret_cast<uint64_t>(blk));
      __ptm_write_8(&root->big_words, kBlockWords);
    });
    transfer(root, rng, 0);
  }
  ptm_stats(&after);
  CHECK_EQ(after.clwb - before.clwb, 0u);
  CHECK_EQ(after.sfence - before.sfence, 0u);
  ptm_close();
  CHECK_EQ(verify(path, {}, "budget"), kTxs + kBlocks);
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  root = static_cast<Root *>(ptm_root(0));
  CHECK(root->big != nullptr);
  CHECK_EQ(root->big_words, kBlockWords);
  uint64_t wrong = 0;
  for (uint64_t i = 0; root->big && i < kBlockWords; ++i)
    wrong += root->big[i] != kBlocks * kBlockWords + i;
  CHECK_EQ(wrong, 0u);
  ptm_close();
  unlink(path.c_str());
}

// next_id as the file at PATH holds it (read_file_at: what the PM view
// wrote, not the pool's DRAM copy).
static uint64_t next_id_in_file(const std::string &path, const Root *root) {
  uint64_t v = 0;
  read_file_at(path, &root->next_id, &v, sizeof v);
  return v;
}

static void kick() {
  std::string path = temp_pool_path("buffered-kick");
  auto *root = create_and_open(path, "buffered:60000");
  constexpr uint64_t kWords = (8u << 10) / 8;
  attach_big(root, kWords);
  CHECK_EQ(next_id_in_file(path, root), 0u); // (no interval, no sync yet)
  ptm_stats_t before, after;
  ptm_stats(&before);
  // Each transaction queues at least its 8 KiB: 64 of them pass the kick
  // (64 Ki words), 128 stay well below the next size that would wake the
  // persister (the 8 MiB budget).
  constexpr uint64_t kTxs = 128;
  std::mt19937 rng(9);
  for (uint64_t t = 1; t <= kTxs; ++t) {
    rewrite_big(root, t, kWords);
    transfer(root, rng, 0);
  }
  ptm_stats(&after);
  CHECK_EQ(after.clwb - before.clwb, 0u);
  CHECK_EQ(after.sfence - before.sfence, 0u);
  // A guard against a hang, far below the 60-s interval: the kicked round
  // takes a few milliseconds.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  uint64_t written = 0;
  while ((written = next_id_in_file(path, root)) == 0 &&
         std::chrono::steady_clock::now() < deadline)
    usleep(1000);
  printf("buffered: the kick wrote %llu of %llu transfers before any sync\n",
         (unsigned long long)written, (unsigned long long)kTxs);
  CHECK(written > 0 && written <= kTxs);
  CHECK_EQ(ptm_sync(), 0);
  CHECK_EQ(next_id_in_file(path, root), kTxs);
  ptm_close();
  CHECK_EQ(verify(path, {}, "kick"), kTxs);
  unlink(path.c_str());
}

static void large_block() {
  std::string path = temp_pool_path("buffered-large");
  auto *root = create_and_open(path, "buffered");
  constexpr uint64_t kWords = (4u << 20) / 8; // 4 MiB: more than a slot logs
  std::mt19937 rng(3);
  transfer(root, rng, 0);
  run_tx([&] {
    auto *big = static_cast<uint64_t *>(ptm_malloc(kWords * 8));
    if (!big)
      _exit(6);
    for (uint64_t i = 0; i < kWords; ++i)
      __ptm_write_8(&big[i], i * 0x9e3779b97f4a7c15ull);
    __ptm_write_8(reinterpret_cast<uint64_t *>(&root->big),
                  reinterpret_cast<uint64_t>(big));
    __ptm_write_8(&root->big_words, kWords);
  });
  transfer(root, rng, 0);
  ptm_close();
  CHECK_EQ(verify(path, {}, "large"), 2u);
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  root = static_cast<Root *>(ptm_root(0));
  CHECK(root->big != nullptr);
  CHECK_EQ(root->big_words, kWords);
  uint64_t wrong = 0;
  for (uint64_t i = 0; root->big && i < kWords; ++i)
    wrong += root->big[i] != i * 0x9e3779b97f4a7c15ull;
  CHECK_EQ(wrong, 0u);
  ptm_close();
  unlink(path.c_str());
}

// realloc and calloc of pool blocks outside a transaction: the bytes realloc
// copies and the zeros calloc writes reach the file with the blocks (a plain
// store would stay in the DRAM copy). The calloc'd block reuses the memory
// of a block that held a pattern, freed and synced before.
static void outside_transactions() {
  std::string path = temp_pool_path("buffered-outside");
  auto *root = create_and_open(path, "buffered");
  constexpr uint64_t kWords = 512;
  uint64_t *a = nullptr, *old = nullptr;
  run_tx([&] {
    a = static_cast<uint64_t *>(ptm_malloc(kWords * 8));
    old = static_cast<uint64_t *>(ptm_malloc(kWords * 8));
    if (!a || !old)
      _exit(6);
    for (uint64_t i = 0; i < kWords; ++i) {
      __ptm_write_8(&a[i], i * 7 + 1);
      __ptm_write_8(&old[i], ~i);
    }
  });
  CHECK_EQ(ptm_sync(), 0);
  free(old); // (outside: its own transaction)
  CHECK_EQ(ptm_sync(), 0);
  auto *z = static_cast<uint64_t *>(ptm_calloc(kWords, 8));
  auto *b = static_cast<uint64_t *>(realloc(a, 2 * kWords * 8));
  CHECK(z != nullptr && b != nullptr);
  printf("buffered outside: the calloc'd block %s the freed one\n",
         z == old ? "reuses" : "does not reuse");
  run_tx([&] {
    __ptm_write_8(reinterpret_cast<uint64_t *>(&root->big),
                  reinterpret_cast<uint64_t>(b));
    __ptm_write_8(&root->big_words, kWords);
    __ptm_write_8(reinterpret_cast<uint64_t *>(&root->notes[1]),
                  reinterpret_cast<uint64_t>(z));
  });
  ptm_close();
  set_durability(nullptr);
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  root = static_cast<Root *>(ptm_root(0));
  CHECK(root->big == b);
  uint64_t wrong = 0;
  for (uint64_t i = 0; root->big == b && i < kWords; ++i)
    wrong += b[i] != i * 7 + 1;
  auto *zz = reinterpret_cast<uint64_t *>(root->notes[1]);
  CHECK(zz == z);
  for (uint64_t i = 0; zz == z && i < kWords; ++i)
    wrong += z[i] != 0;
  CHECK_EQ(wrong, 0u);
  ptm_close();
  unlink(path.c_str());
}

static int child_crash(const char *path, int fd) {
  set_durability("buffered:1");
  auto *root = open_transfer_root<Root>(path);
  if (!root)
    return 3;
  auto work = [&](unsigned seed, int t) {
    std::mt19937 rng(seed);
    for (uint64_t n = 1;; ++n) {
      uint64_t id = transfer(root, rng, t);
      if (n % kSyncEvery != 0)
        continue;
      if (ptm_sync() != 0)
        _exit(7);
      if (write(fd, &id, sizeof id) != sizeof id)
        _exit(4);
    }
  };
  run_workers(work); // never returns: killed
  return 0;
}

static void crashes(const char *self, int iterations, unsigned seed,
                    const char *tool) {
  std::mt19937 rng(seed);
  std::string path = temp_pool_path("buffered-crash");
  create_pool(path);
  uint64_t total_acks = 0, last_next = 0;
  for (int it = 0; it < iterations; ++it) {
    CrashChild c(self, "child-crash", path);
    std::vector<uint64_t> acks;
    size_t kill_after = 1 + rng() % 300;
    if (!read_acks(c.fd, acks, kill_after)) {
      fprintf(stderr, "iteration %d: no acknowledgement for 60 s (hang)\n", it);
      CHECK(false);
    }
    char when[64];
    snprintf(when, sizeof when, "crash %d", it);
    c.kill_and_collect(acks, when);
    CHECK(acks.size() >= kill_after);
    total_acks += acks.size();
    pool_check(tool, path, when);
    uint64_t next = verify(path, acks, when);
    CHECK(next >= last_next); // nothing durable is lost later
    last_next = next;
    pool_check(tool, path, when);
  }
  printf("buffered: %d kills, %llu synced transfers checked, %llu in the "
         "file\n",
         iterations, (unsigned long long)total_acks,
         (unsigned long long)last_next);
  unlink(path.c_str());
}

static void refused() {
  std::string path = temp_pool_path("buffered-refused");
  set_durability("buffered");
  StderrCapture cap;
  cap.start();
  int rc = ptm_open(path.c_str(), 64 << 20);
  std::string err = cap.stop();
  CHECK_EQ(rc, -ENOTSUP);
  CHECK(err.find(ptm_algorithm()) != std::string::npos);
  CHECK(err.find("cannot defer durability") != std::string::npos);
  CHECK(access(path.c_str(), F_OK) != 0);
  set_durability(nullptr);
  printf("buffered: refused by %s\n", ptm_algorithm());
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "child-crash"))
    return child_crash(argv[2], atoi(argv[3]));
  if (argc == 4 && !strcmp(argv[1], "child-exit"))
    return child_exit(argv[2], strtoull(argv[3], nullptr, 10));
  signal(SIGPIPE, SIG_IGN);
  if (argc == 2 && !strcmp(argv[1], "refused")) {
    refused();
    return check_result("buffered-refused");
  }
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  unsigned seed = argc > 2 ? unsigned(atoi(argv[2])) : 1;
  const char *tool = argc > 3 ? argv[3] : nullptr;
  errors();
  clean_close();
  exit_without_close(argv[0]);
  budget();
  kick();
  large_block();
  outside_transactions();
  crashes(argv[0], iterations, seed, tool);
  return check_result("buffered");
}
