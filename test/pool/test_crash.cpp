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

#include "pool_test.h"

#include <csignal>
#include <cstring>
#include <poll.h>
#include <random>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <vector>

constexpr int kAccounts = 64;
constexpr uint64_t kInitial = 1000;
constexpr uint64_t kRecords = 1 << 16;

struct Record {
  uint64_t id, from, to, amount;
};

struct Note {
  uint64_t id, thread;
};

struct Root {
  uint64_t next_id;
  uint64_t accounts[kAccounts];
  Note *notes[2]; // each child thread's newest note
  Record records[kRecords];
};

static int child(const char *path, int fd) {
  if (ptm_open(path, 0) != 0)
    return 3;
  auto *root = static_cast<Root *>(ptm_root(0));
  if (!root)
    return 3;
  auto work = [&](unsigned seed, int t) {
    std::mt19937 rng(seed);
    for (;;) {
      uint64_t from = rng() % kAccounts, to = rng() % kAccounts;
      uint64_t amount = rng() % 100;
      uint64_t id = 0;
      run_tx([&] {
        id = __ptm_read_8(&root->next_id);
        __ptm_write_8(&root->next_id, id + 1);
        uint64_t a = __ptm_read_8(&root->accounts[from]);
        uint64_t moved = a < amount ? a : amount;
        __ptm_write_8(&root->accounts[from], a - moved);
        __ptm_write_8(&root->accounts[to],
                      __ptm_read_8(&root->accounts[to]) + moved);
        Record *r = &root->records[id % kRecords];
        __ptm_write_8(&r->id, id);
        __ptm_write_8(&r->from, from);
        __ptm_write_8(&r->to, to);
        __ptm_write_8(&r->amount, moved);
        auto *note = static_cast<Note *>(ptm_malloc(sizeof(Note)));
        if (!note)
          _exit(6);
        __ptm_write_8(&note->id, id);
        __ptm_write_8(&note->thread, uint64_t(t));
        auto *slot = reinterpret_cast<uint64_t *>(&root->notes[t]);
        ptm_free(reinterpret_cast<void *>(__ptm_read_8(slot)));
        __ptm_write_8(slot, reinterpret_cast<uint64_t>(note));
      });
      if (write(fd, &id, sizeof id) != sizeof id)
        _exit(4);
    }
  };
  std::thread t1(work, unsigned(getpid()) * 2, 0),
      t2(work, unsigned(getpid()) * 2 + 1, 1);
  t1.join(); // never returns: killed
  t2.join();
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
  uint64_t sum = 0;
  for (auto a : root->accounts)
    sum += a;
  if (sum != kInitial * kAccounts)
    fprintf(stderr, "iteration %d: total %llu\n", iteration,
            (unsigned long long)sum);
  CHECK_EQ(sum, kInitial * kAccounts);
  uint64_t next = root->next_id;
  int missing = 0;
  for (uint64_t id : acks) {
    bool ok = id < next &&
              (id + kRecords < next || root->records[id % kRecords].id == id);
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
      fprintf(stderr, "iteration %d: note of thread %llu is damaged\n",
              iteration, (unsigned long long)t);
    CHECK(ok);
  }
  ptm_close();
}

// Reads acknowledgements from FD into ACKS until it holds WANT of them or
// the child closed the pipe (it died). False if no acknowledgement came for
// 60 s (a hang).
static bool read_acks(int fd, std::vector<uint64_t> &acks, size_t want) {
  constexpr int kStallMs = 60000;
  while (acks.size() < want) {
    struct pollfd p = {fd, POLLIN, 0};
    int n = poll(&p, 1, kStallMs);
    if (n == 0)
      return false;
    if (n < 0)
      continue; // EINTR
    uint64_t id;
    if (read(fd, &id, sizeof id) != sizeof id)
      return true; // closed: the child died (its status says how)
    acks.push_back(id);
  }
  return true;
}

// `ptm-pool check FILE` exits 0 (the tool checks the header, the pending
// logs and, after recovering a private copy, the heap).
static void pool_check(const char *tool, const std::string &path,
                       const char *when, int iteration) {
  if (!tool)
    return;
  std::string cmd = std::string(tool) + " check " + path + " > /dev/null";
  int rc = system(cmd.c_str());
  if (rc != 0)
    fprintf(stderr, "iteration %d: ptm-pool check %s failed (%d)\n", iteration,
            when, rc);
  CHECK_EQ(rc, 0);
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
  CHECK_EQ(ptm_open(path.c_str(), 64 << 20), 0);
  auto *root = static_cast<Root *>(ptm_root(sizeof(Root)));
  CHECK(root != nullptr);
  run_tx([&] {
    for (auto &a : root->accounts)
      __ptm_write_8(&a, kInitial);
  });
  ptm_close();

  std::vector<uint64_t> acks;
  uint64_t total_acks = 0;
  for (int it = 0; it < iterations; ++it) {
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      char fd_text[16];
      snprintf(fd_text, sizeof fd_text, "%d", fds[1]);
      execl("/proc/self/exe", argv[0], "child", path.c_str(), fd_text,
            (char *)nullptr);
      _exit(5);
    }
    close(fds[1]);
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
    if (!read_acks(fds[0], acks, kill_after)) {
      fprintf(stderr,
              "iteration %d: no acknowledgement for 60 s after %zu (hang)\n",
              it, acks.size());
      CHECK(false);
    }
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFSIGNALED(status))
      fprintf(stderr, "iteration %d: child exited with status %d\n", it,
              WEXITSTATUS(status));
    else if (WTERMSIG(status) != SIGKILL) // e.g. SIGSEGV before the kill
      fprintf(stderr, "iteration %d: child died of signal %d\n", it,
              WTERMSIG(status));
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    uint64_t id; // the rest: acknowledged before the kill
    while (read(fds[0], &id, sizeof id) == sizeof id)
      acks.push_back(id);
    close(fds[0]);
    if (acks.size() < kill_after)
      fprintf(stderr, "iteration %d: the child died after %zu of %zu acks\n",
              it, acks.size(), kill_after);
    CHECK(acks.size() >= kill_after);
    total_acks += acks.size();
    pool_check(tool, path, "after the crash", it);
    verify(path, acks, it);
    pool_check(tool, path, "after recovery", it);
  }
  printf("crash: %d kills, %llu acknowledged transfers checked\n", iterations,
         (unsigned long long)total_acks);
  CHECK(iterations < 1 || total_acks > 0); // iteration 0 waits for an ack
  unlink(path.c_str());
  return check_result("crash");
}
