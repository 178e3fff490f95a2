//===- transfer_load.h - the workload of the real-crash tests ---*- C++ -*-===//
//
// test_crash (strict durability) and test_buffered (buffered durability)
// run the same transaction under SIGKILL: a transfer between two of
// kAccounts accounts that also takes the next id, writes its record (id + 1,
// so that 0 is "never written") into a ring of records, allocates a note
// naming it and frees the thread's previous note. ROOT is the test's root
// object: next_id, accounts, records and notes[2].
//
// A crashing child (CrashChild) is this program started again as `SELF MODE
// PATH FD`: its two worker threads (run_workers) acknowledge transfers by
// writing ids to the pipe FD; the parent reads them (read_acks), SIGKILLs
// it and collects the rest (kill_and_collect). pool_check runs `ptm-pool
// check` on a pool file.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_POOL_TRANSFER_LOAD_H
#define PTM_TEST_POOL_TRANSFER_LOAD_H

#include "pool_test.h"

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <poll.h>
#include <random>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

constexpr int kAccounts = 64;
constexpr uint64_t kInitial = 1000;

struct Record {
  uint64_t id_plus_1, from, to, amount; // 0: never written
};

struct Note {
  uint64_t id, thread;
};

// Creates the pool at PATH (SIZE bytes) with ROOT's accounts at kInitial,
// and closes it.
template <class Root>
void create_transfer_pool(const std::string &path, size_t size = 64 << 20) {
  CHECK_EQ(ptm_open(path.c_str(), size), 0);
  auto *root = static_cast<Root *>(ptm_root(sizeof(Root)));
  CHECK(root != nullptr);
  run_tx([&] {
    for (auto &a : root->accounts)
      __ptm_write_8(&a, kInitial);
  });
  ptm_close();
}

// A crashing child's root in the pool at PATH (nullptr: it cannot open it).
template <class Root> Root *open_transfer_root(const char *path) {
  if (ptm_open(path, 0) != 0)
    return nullptr;
  return static_cast<Root *>(ptm_root(0));
}

// ROOT's accounts still hold kInitial * kAccounts in all (no transfer half
// applied); WHEN names the check in the message.
template <class Root> void check_total(const Root *root, const char *when) {
  uint64_t sum = 0;
  for (auto a : root->accounts)
    sum += a;
  if (sum != kInitial * kAccounts)
    fprintf(stderr, "%s: total %llu\n", when, (unsigned long long)sum);
  CHECK_EQ(sum, kInitial * kAccounts);
}

// One transfer of thread T (0 or 1); returns its id.
template <class Root> uint64_t transfer(Root *root, std::mt19937 &rng, int t) {
  const uint64_t records = std::size(root->records);
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
    Record *r = &root->records[id % records];
    __ptm_write_8(&r->id_plus_1, id + 1);
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
  return id;
}

// Reads acknowledgements from FD into ACKS until it holds WANT of them or
// the child closed the pipe (it died). False if no acknowledgement came for
// 60 s (a hang).
inline bool read_acks(int fd, std::vector<uint64_t> &acks, size_t want) {
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

// WORK(seed, t) on two threads, t = 0 and 1, seeded from the process id; it
// never returns (the parent kills the process).
template <class F> void run_workers(F work) {
  std::thread t1(work, unsigned(getpid()) * 2, 0),
      t2(work, unsigned(getpid()) * 2 + 1, 1);
  t1.join();
  t2.join();
}

struct CrashChild {
  pid_t pid;
  int fd; // the read end of its acknowledgements

  // Starts `SELF MODE PATH FD`.
  CrashChild(const char *self, const char *mode, const std::string &path) {
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    pid = fork();
    if (pid == 0) {
      close(fds[0]);
      char fd_text[16];
      snprintf(fd_text, sizeof fd_text, "%d", fds[1]);
      execl("/proc/self/exe", self, mode, path.c_str(), fd_text,
            (char *)nullptr);
      _exit(5);
    }
    close(fds[1]);
    fd = fds[0];
  }

  // SIGKILLs it, checks that the kill is what ended it, and appends to ACKS
  // what it acknowledged before it died. WHEN names the iteration.
  void kill_and_collect(std::vector<uint64_t> &acks, const char *when) {
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFSIGNALED(status))
      fprintf(stderr, "%s: child exited with status %d\n", when,
              WEXITSTATUS(status));
    else if (WTERMSIG(status) != SIGKILL) // e.g. SIGSEGV before the kill
      fprintf(stderr, "%s: child died of signal %d\n", when, WTERMSIG(status));
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    uint64_t id;
    while (read(fd, &id, sizeof id) == sizeof id)
      acks.push_back(id);
    close(fd);
  }
};

// `TOOL check PATH` exits 0 (the tool checks the header, the pending logs
// and, after recovering a private copy, the heap); no TOOL: nothing.
inline void pool_check(const char *tool, const std::string &path,
                       const char *when) {
  if (!tool)
    return;
  std::string cmd = std::string(tool) + " check " + path + " > /dev/null";
  int rc = system(cmd.c_str());
  if (rc != 0)
    fprintf(stderr, "%s: ptm-pool check failed (%d)\n", when, rc);
  CHECK_EQ(rc, 0);
}

#endif // PTM_TEST_POOL_TRANSFER_LOAD_H
