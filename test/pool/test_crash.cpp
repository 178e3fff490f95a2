//===- test_crash.cpp - real crashes: SIGKILL a writer, reopen, check -----===//
//
// test_crash ITERATIONS SEED [PTM_POOL_TOOL]: a child process (this program,
// `child` mode) runs transfers at 2 threads on a pool file; each transfer
// also allocates a note (ptm_malloc) and frees the thread's previous one in
// the same transaction. After each commit it writes the transfer's id to a
// pipe (an acknowledgement). The parent SIGKILLs it at a seeded random
// point given by a count, not a time: after 1..2000 acknowledged transfers
// (the child's threads never stop, so the kill lands in the middle of the
// load on a fast and on a slow machine alike). Every fourth kill comes 0 to
// 20 ms after the start instead, without waiting for anything: it may land
// in the exec, in the recovery of the previous crash or in the first
// transfers (where depends on the machine's speed; the verdict does not:
// any point must be safe). The parent runs `ptm-pool check` on the crashed
// file (when the tool is given), reopens the pool (recovery runs), and
// checks that the total is conserved, that every acknowledged transfer is
// present (ids below next_id, and its record in the pool's ring of records),
// that each thread's note is a live block naming one of its transfers, and
// `ptm-pool check` again; then starts the next child on the same pool.
// Bounded: ITERATIONS kills. A child that acknowledges nothing for 60 s is a
// hang (a failure).
//
//===----------------------------------------------------------------------===//

#include "transfer_load.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <vector>

constexpr uint64_t kRecords = 1 << 16;

struct Root {
  uint64_t next_id;
  uint64_t accounts[kAccounts];
  Note *notes[2]; // each child thread's newest note
  Record records[kRecords];
};

static int child(const char *path, int fd) {
  auto *root = open_transfer_root<Root>(path);
  if (!root)
    return 3;
  auto work = [&](unsigned seed, int t) {
    std::mt19937 rng(seed);
    for (;;) {
      uint64_t id = transfer(root, rng, t);
      if (write(fd, &id, sizeof id) != sizeof id)
        _exit(4);
    }
  };
  run_workers(work); // never returns: killed
  return 0;
}

// Reopens the pool and checks it against the acknowledged ids.
static void verify(const std::string &path, const std::vector<uint64_t> &acks,
                   int iteration) {
  int rc = ptm_open(path.c_str(), 0);
  CHECK_EQ(rc, 0);
  if (rc != 0)
    return;
  auto *root = static_cast<Root *>(ptm_root(0));
  CHECK(root != nullptr);
  char when[32];
  snprintf(when, sizeof when, "iteration %d", iteration);
  check_total(root, when);
  uint64_t next = root->next_id;
  int missing = 0;
  for (uint64_t id : acks) {
    bool ok = id < next && (id + kRecords < next ||
                            root->records[id % kRecords].id_plus_1 == id + 1);
    if (!ok && ++missing < 5)
      fprintf(stderr,
              "iteration %d: acknowledged transfer %llu missing "
              "(next_id %llu)\n",
              iteration, (unsigned long long)id, (unsigned long long)next);
  }
  CHECK_EQ(missing, 0);
  for (uint64_t t = 0; t < 2; ++t) {
    Note *n = root->notes[t];
    if (!n)
      continue;
    bool ok = n->thread == t && n->id < next;
    if (!ok)
      fprintf(stderr,
              "iteration %d: note of thread %llu is damaged (at offset "
              "%llu: id %llu, thread %llu; next_id %llu; the other "
              "thread's note at offset %llu)\n",
              iteration, (unsigned long long)t,
              (unsigned long long)((char *)n - (char *)root),
              (unsigned long long)n->id, (unsigned long long)n->thread,
              (unsigned long long)next,
              (unsigned long long)((char *)root->notes[1 - t] - (char *)root));
    CHECK(ok);
  }
  ptm_close();
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "child"))
    return child(argv[2], atoi(argv[3]));
  int iterations = argc > 1 ? atoi(argv[1]) : 20;
  unsigned seed = argc > 2 ? unsigned(atoi(argv[2])) : 1;
  const char *tool = argc > 3 ? argv[3] : nullptr;
  std::mt19937 rng(seed);
  signal(SIGPIPE, SIG_IGN);

  std::string path = temp_pool_path("crash");
  create_transfer_pool<Root>(path);

  std::vector<uint64_t> acks;
  uint64_t total_acks = 0;
  for (int it = 0; it < iterations; ++it) {
    CrashChild c(argv[0], "child", path);
    acks.clear();
    // The kill point: after 1..2000 acknowledged transfers, or (every
    // fourth iteration) 0 to 20 ms after the start.
    size_t kill_after = 0;
    if (it % 4 == 3) {
      struct timespec ts = {0, long(rng() % 21) * 1000000L};
      nanosleep(&ts, nullptr);
    } else {
      kill_after = 1 + rng() % 2000;
    }
    if (!read_acks(c.fd, acks, kill_after)) {
      fprintf(stderr,
              "iteration %d: no acknowledgement for 60 s after %zu (hang)\n",
              it, acks.size());
      CHECK(false);
    }
    char when[64];
    snprintf(when, sizeof when, "iteration %d", it);
    c.kill_and_collect(acks, when); // (the rest: acknowledged before it)
    if (acks.size() < kill_after)
      fprintf(stderr, "iteration %d: the child died after %zu of %zu acks\n",
              it, acks.size(), kill_after);
    CHECK(acks.size() >= kill_after);
    total_acks += acks.size();
    // PTM_TEST_KEEP_CRASHED=1: the crashed file is copied first and kept
    // (its name printed) if this iteration's checks fail, for a post-mortem.
    std::string kept;
    if (getenv("PTM_TEST_KEEP_CRASHED")) {
      kept = path + ".crashed-" + std::to_string(it);
      CHECK_EQ(system(("cp --sparse=always " + path + " " + kept).c_str()), 0);
    }
    int failures_before = check_failures;
    snprintf(when, sizeof when, "iteration %d, after the crash", it);
    pool_check(tool, path, when);
    verify(path, acks, it);
    if (!kept.empty()) {
      if (check_failures != failures_before)
        fprintf(stderr, "iteration %d: the crashed pool is kept in %s\n", it,
                kept.c_str());
      else
        unlink(kept.c_str());
    }
    snprintf(when, sizeof when, "iteration %d, after recovery", it);
    pool_check(tool, path, when);
  }
  printf("crash: %d kills, %llu acknowledged transfers checked\n", iterations,
         (unsigned long long)total_acks);
  CHECK(iterations < 1 || total_acks > 0); // iteration 0 waits for an ack
  unlink(path.c_str());
  return check_result("crash");
}
