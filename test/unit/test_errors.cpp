//===- test_errors.cpp - fatal errors, warnings, the volatile pool --------===//
//
// Each fatal case runs in a child process: it must exit with status 70 and
// print "ptm: error: " and the expected words on stderr.
//
//===----------------------------------------------------------------------===//

#include "check.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

// Runs BODY in a child; returns its exit status (-1 if killed) and stderr.
template <class F> static int in_child(F body, std::string &err) {
  int fds[2];
  if (pipe(fds) != 0)
    return -2;
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 2);
    close(fds[0]);
    body();
    _exit(0);
  }
  close(fds[1]);
  char buf[4096];
  ssize_t n;
  err.clear();
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    err.append(buf, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool has(const std::string &s, const char *what) {
  return s.find(what) != std::string::npos;
}

int main() {
  std::string err;

  CHECK_EQ(in_child([] { ptm_restart(); }, err), 70);
  CHECK(has(err, "ptm: error: ") && has(err, "outside a transaction"));

  CHECK_EQ(in_child([] { __ptm_tx_commit(); }, err), 70);
  CHECK(has(err, "ptm: error: "));

  CHECK_EQ(in_child([] { __ptm_region_end(); }, err), 70);
  CHECK(has(err, "PTM_END"));

  // ptm_restart in a region compiled without the plugin (no checkpoint).
  CHECK_EQ(in_child(
               [] {
                 __ptm_region_begin();
                 ptm_restart();
               },
               err),
           70);
  CHECK(has(err, "irrevocable"));

  // A clone miss makes the transaction irrevocable: a later restart is fatal
  // and names the site.
  CHECK_EQ(in_child(
               [] {
                 run_tx([] {
                   __ptm_clone_lookup(reinterpret_cast<const void *>(&puts),
                                      "errors.c:12");
                   ptm_restart();
                 });
               },
               err),
           70);
  CHECK(has(err, "ptm: warning: errors.c:12") && has(err, "errors.c:12"));
  CHECK(has(err, "puts")); // dladdr found the name

  // The warning is printed once per site.
  CHECK_EQ(in_child(
               [] {
                 for (int i = 0; i < 3; ++i)
                   run_tx([] {
                     __ptm_unsupported(PTM_UNSUPPORTED_INLINE_ASM, "asm",
                                       "errors.c:20");
                   });
               },
               err),
           0);
  CHECK(has(err, "errors.c:20") &&
        err.find("errors.c:20") == err.rfind("errors.c:20"));
  CHECK(has(err, "inline assembly"));

  // PTM_UNSUPPORTED=error makes it fatal.
  CHECK_EQ(in_child(
               [] {
                 setenv("PTM_UNSUPPORTED", "error", 1);
                 run_tx([] {
                   __ptm_unsupported(PTM_UNSUPPORTED_IRREVOCABLE, "printf",
                                     "errors.c:30");
                 });
               },
               err),
           70);
  CHECK(has(err, "ptm: error: errors.c:30") && has(err, "printf"));

  // PTM_STATS=1 prints the statistics at exit.
  CHECK_EQ(in_child(
               [] {
                 run_tx([] {});
                 ptm_stats_print(nullptr);
               },
               err),
           0);
  CHECK(has(err, "commits") && has(err, "total"));

  // The volatile pool: ptm_open succeeds, touches no file and says once that
  // nothing is crash consistent.
  CHECK_EQ(in_child(
               [] {
                 int a = ptm_open("/nonexistent-dir/x.pool", 1 << 20);
                 int b = ptm_open("/nonexistent-dir/x.pool", 1 << 20);
                 _exit(a == 0 && b == 0 ? 0 : 1);
               },
               err),
           0);
  CHECK(has(err, "ptm: note: library '") && has(err, "is volatile (STM)") &&
        has(err, "no crash consistency") && has(err, ptm_algorithm()));
  CHECK(err.find("no crash consistency") == err.rfind("no crash consistency"));
  void *root = ptm_root(64);
  CHECK(root != nullptr && static_cast<char *>(root)[63] == 0);
  CHECK(ptm_root(32) == root);
  CHECK(ptm_root(64) == root);
  CHECK_EQ(in_child([] { _exit(ptm_root(128) == nullptr ? 0 : 1); }, err), 0);
  CHECK(has(err, "ptm: error: "));
  ptm_close();
  void *p = ptm_malloc(10), *q = ptm_calloc(2, 8),
       *r = ptm_aligned_alloc(64, 64);
  CHECK(p && q && r && reinterpret_cast<uintptr_t>(r) % 64 == 0);
  CHECK(static_cast<char *>(q)[15] == 0);
  ptm_free(p);
  ptm_free(q);
  ptm_free(r);
  return check_result("errors");
}
