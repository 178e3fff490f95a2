//===- asymmetric_fence.cpp - membarrier registration and the rare side ---===//

#include "runtime/base/asymmetric_fence.h"
#include "runtime/base/report.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <linux/membarrier.h>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

namespace ptm {

std::atomic<bool> membarrier_ready{false};

namespace {

long membarrier(int cmd) { return syscall(__NR_membarrier, cmd, 0, 0); }

bool register_process() {
  const char *env = getenv("PTM_MEMBARRIER");
  if (env && strcmp(env, "off") == 0)
    return false;
  long cmds = membarrier(MEMBARRIER_CMD_QUERY);
  if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) ||
      !(cmds & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED))
    return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}

} // namespace

bool asymmetric_fence_init() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (register_process())
      membarrier_ready.store(true, std::memory_order_seq_cst);
  });
  return membarrier_ready.load(std::memory_order_relaxed);
}

void fence_heavy() {
  if (membarrier_ready.load(std::memory_order_relaxed) &&
      membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0)
    return;
  // (failing after a successful registration: the light sides may be
  // compiler barriers only, nothing can make them safe now)
  if (membarrier_ready.load(std::memory_order_relaxed))
    fatal("membarrier failed after registration (%s)", strerror(errno));
  std::atomic_thread_fence(std::memory_order_seq_cst);
}

} // namespace ptm
