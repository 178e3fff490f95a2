//===- durability.cpp - PTM_DURABILITY; the two views of a buffered pool --===//

#include "runtime/pool/durability.h"

#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/shadow.h"
#include "runtime/pool/commit_queue.h"
#include "runtime/pool/persistent_pool.h"
#include "runtime/pool/persister.h"
#include "runtime/pool/recovery.h"
#include "runtime/pool/speculative.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace ptm {
namespace pool {

bool buffered = false;
bool awaited = false;
bool library_defers_durability = false;

namespace {
char *pm_view;      // the PM view of a buffered pool
bool exit_sync_set; // sync_at_exit registered
} // namespace

bool parse_durability(const char *text, DurabilityMode *out) {
  DurabilityMode m;
  if (strcmp(text, "strict") == 0) {
    *out = m;
    return true;
  }
  const char *word = "buffered";
  size_t n = strlen(word);
  if (strncmp(text, word, n) != 0)
    return false;
  m.buffered = true;
  if (text[n] == ':') {
    const char *digits = text + n + 1;
    char *end;
    errno = 0;
    unsigned long ms = strtoul(digits, &end, 10);
    if (*digits < '0' || *digits > '9' || *end != '\0' || errno != 0 ||
        ms < 1 || ms > 60000)
      return false;
    m.interval_ms = unsigned(ms);
  } else if (text[n] != '\0') {
    return false;
  }
  *out = m;
  return true;
}

int durability_from_env(const char *path, DurabilityMode *out) {
  *out = DurabilityMode();
  const char *env = getenv("PTM_DURABILITY");
  if (!env || !*env)
    return 0;
  if (!parse_durability(env, out)) {
    error("%s: PTM_DURABILITY='%s' is not 'strict', 'buffered' or "
          "'buffered:MS' (MS: milliseconds, 1 to 60000)",
          path, env);
    return -EINVAL;
  }
  if (out->buffered && !library_defers_durability) {
    error("%s: PTM_DURABILITY=buffered: library '%s' cannot defer "
          "durability (its transactions write in place, or it has no log "
          "ring); use a lazy gp_ or ip_ library, e.g. ip_orec_lazy",
          path, ptm_algorithm());
    return -ENOTSUP;
  }
  return 0;
}

int strict_on_persister(const char *path, bool *out) {
  *out = false;
  const char *how = getenv("PTM_FILE_COMMIT");
  if (how && strcmp(how, "persister") != 0 && strcmp(how, "fence") != 0) {
    error("%s: PTM_FILE_COMMIT='%s' is not 'persister' or 'fence'", path, how);
    return -EINVAL;
  }
  *out = library_defers_durability && !library_speculative &&
         !(how && strcmp(how, "fence") == 0);
  return 0;
}

static void sync_at_exit() {
  if (buffered && this_thread().depth == 0)
    sync_durable();
}

void start_buffered(const PoolView &view, const char *path,
                    const DurabilityMode &mode) {
  size_t size = view.size();
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    fatal("%s: cannot open the pool file again for buffered durability: %s",
          path, strerror(errno));
  void *pm = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  // The pool's range, recovered: from now on a private copy of the file.
  void *dram = pm == MAP_FAILED ? MAP_FAILED
                                : mmap(view.base, size, PROT_READ | PROT_WRITE,
                                       MAP_PRIVATE | MAP_FIXED, fd, 0);
  if (dram == MAP_FAILED) {
    int err = errno;
    close(fd);
    fatal("%s: cannot map the pool for buffered durability: %s", path,
          strerror(err));
  }
  if (mode.awaited) {                 // (strict through the persister)
    persist::read_no_ahead(pm, size); // (the file's cache dropped at open)
    persist::read_no_ahead(dram, size);
  }
  pm_view = static_cast<char *>(pm);
  auto lo = reinterpret_cast<uintptr_t>(view.base);
  persist::ShadowView shadow;
  shadow.lo = lo;
  shadow.hi = lo + size;
  shadow.copy_lo = reinterpret_cast<uintptr_t>(view.slot(0));
  shadow.copy_hi =
      reinterpret_cast<uintptr_t>(view.slot(view.header.slot_count));
  shadow.delta = reinterpret_cast<intptr_t>(pm) - intptr_t(lo);
  persist::begin_shadow(shadow);
  buffered = true;
  awaited = mode.awaited;
  // sp3: its orders are its clock's, from the clock's value now.
  uint64_t first = 0;
  if (library_speculative) {
    speculative = !mode.buffered;
    speculative_reset();
    first = speculative_clock->load();
  }
  start_persister(mode.interval_ms, uintptr_t(shadow.delta), first, fd);
  if (!exit_sync_set) {
    exit_sync_set = true;
    atexit(sync_at_exit); // a program that ends without ptm_close
  }
}

void stop_buffered(const PoolView &view) {
  stop_persister();
  if (speculative) { // every record applied: the speculative logs retired
    PoolView pm = view;
    pm.base = pm_view;
    settle_at_close(pm);
    speculative = false;
  }
  persist::end_shadow();
  buffered = awaited = false;
  persist::sync_range(pm_view, view.size());
  write_open_state(pm_view, 0);
  munmap(pm_view, view.size());
  pm_view = nullptr;
}

int sync_durable() {
  if (this_thread().depth > 0) {
    error("ptm_sync inside a transaction: it would wait for its own commit");
    return -EINVAL;
  }
  // (sp3's strict mode: durable already; the wait brings the PM view up to
  // date and empties the commit queues)
  if (!buffered)
    return 0;
  persister_sync(commit_seq.load(std::memory_order_acquire));
  return 0;
}

} // namespace pool
} // namespace ptm
