//===- mapped_pool.h - a closed pool mapped by hand -------------*- C++ -*-===//
//
// The tests that write or read thread slots the way a crash leaves them map
// the pool file themselves, as recovery and ptm-pool do: MappedPool reads
// the header, maps the file and unmaps it at the end (or at unmap(), before
// ptm_open takes the file over), and runs the recovery that must refuse a
// damaged log. run_until_killed runs a crashing child; ptm_pool_check runs
// `ptm-pool check` on the recovered pool.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_TEST_POOL_MAPPED_POOL_H
#define PTM_TEST_POOL_MAPPED_POOL_H

#include "../unit/check.h"
#include "runtime/pool/pool_file.h"
#include "runtime/pool/pool_view.h"
#include "runtime/pool/recovery.h"
#include "test/pool/pool_test.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <sys/wait.h>

#include <string>

struct MappedPool {
  ptm::pool::PoolView view;

  MappedPool(const std::string &path, bool writable) {
    CHECK_EQ(ptm::pool::read_pool_header(path.c_str(), 0, &view.header), 0);
    CHECK_EQ(
        ptm::pool::map_pool(path.c_str(), view.header, writable, &view.base),
        0);
  }
  ~MappedPool() { unmap(); }
  MappedPool(const MappedPool &) = delete;
  MappedPool &operator=(const MappedPool &) = delete;

  void unmap() {
    if (view.base)
      ptm::pool::unmap_pool(view.base, view.header.pool_size);
    view.base = nullptr;
  }

  // Recovery of PATH's mapped logs, which must be refused (-EIO); returns
  // what it printed.
  std::string refused_recovery(const std::string &path) {
    StderrCapture cap;
    cap.start();
    int rc = ptm::pool::recover(view, path.c_str(), nullptr);
    std::string err = cap.stop();
    CHECK_EQ(rc, -EIO);
    return err;
  }
};

// Runs CHILD(PATH) in a child process, which must end killed by SIGKILL
// (the crash the test makes); CHILD never returns.
template <class F> void run_until_killed(const std::string &path, F child) {
  pid_t pid = fork();
  if (pid == 0)
    child(path);
  int status = 0;
  CHECK_EQ(waitpid(pid, &status, 0), pid);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

// `TOOL check PATH` (ptm-pool: header, pending logs, heap) passes; no TOOL,
// nothing to run.
inline void ptm_pool_check(const char *tool, const std::string &path) {
  if (!tool)
    return;
  std::string cmd = std::string(tool) + " check " + path + " >/dev/null";
  CHECK_EQ(system(cmd.c_str()), 0);
}

#endif // PTM_TEST_POOL_MAPPED_POOL_H
