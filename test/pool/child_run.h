//===- child_run.h - run a program with a time limit ------------*- C++ -*-===//
//
// run_child(argv, limit) runs ARGV[0] (a path) with ARGV, stdout to
// /dev/null, stderr kept, and SIGALRM armed at LIMIT seconds: a program
// still running then dies of SIGALRM, which the result calls a hang. The
// limit is generous (the fuzz test's runs take milliseconds); it only turns
// a hang into a failure instead of a stuck test. pool_tool_check(tool,
// path, limit) runs `ptm-pool check` so.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_POOL_CHILD_RUN_H
#define PTM_TEST_POOL_CHILD_RUN_H

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

struct ChildResult {
  bool hang = false;   // still running at the limit
  int signal = 0;      // killed by this signal (not the limit's)
  int exit_code = -1;  // exited with this status
  std::string stderr_; // what it wrote to stderr

  bool exited(int code) const { return !hang && !signal && exit_code == code; }
  std::string describe() const {
    if (hang)
      return "hang (still running at the time limit)";
    if (signal)
      return std::string("killed by signal ") + std::to_string(signal) + " (" +
             strsignal(signal) + ")";
    return "exit status " + std::to_string(exit_code);
  }
};

inline ChildResult run_child(const std::vector<std::string> &argv,
                             unsigned limit_seconds) {
  ChildResult r;
  FILE *err = tmpfile();
  if (!err) {
    r.stderr_ = "run_child: no temporary file";
    return r;
  }
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(fileno(err), 2);
    std::vector<char *> args;
    for (const std::string &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    signal(SIGALRM, SIG_DFL);
    alarm(limit_seconds);
    execv(args[0], args.data());
    _exit(127);
  }
  if (pid < 0) {
    fclose(err);
    r.stderr_ = std::string("run_child: fork: ") + strerror(errno);
    return r;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (WIFSIGNALED(status)) {
    if (WTERMSIG(status) == SIGALRM)
      r.hang = true;
    else
      r.signal = WTERMSIG(status);
  } else {
    r.exit_code = WEXITSTATUS(status);
  }
  rewind(err);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, err)) > 0)
    r.stderr_.append(buf, n);
  fclose(err);
  return r;
}

// `TOOL check PATH` (TOOL: ptm-pool) exits 0; what it said goes to stderr
// if not.
inline bool pool_tool_check(const std::string &tool, const std::string &path,
                            unsigned limit_seconds) {
  ChildResult r = run_child({tool, "check", path}, limit_seconds);
  if (!r.exited(0))
    fprintf(stderr, "ptm-pool check: %s\n%s", r.describe().c_str(),
            r.stderr_.c_str());
  return r.exited(0);
}

#endif // PTM_TEST_POOL_CHILD_RUN_H
