//===- domain.cpp - the persistence domain; syncing the pool file ---------===//

#include "runtime/persist/domain.h"

#include "runtime/base/report.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/persist.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <linux/magic.h>
#include <memory>
#include <mutex>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

namespace ptm {
namespace persist {

namespace {

constexpr struct {
  const char *name;
  Domain domain;
} kDomains[] = {{"pmem", Domain::Pmem},
                {"eadr", Domain::Eadr},
                {"file", Domain::File},
                {"page-cache", Domain::PageCache}};

Domain open_domain = Domain::None, last_open_domain = Domain::None;

// Group commit: a thread that asks for a sync takes a ticket after its
// stores; a sync that starts after a ticket covers it. While one sync runs,
// the threads that ask wait, and the first of them to see it end starts the
// next one for all of them. A thread about to sync for its ticket alone,
// when the previous sync was another thread's, first waits for that thread's
// next ticket, at most as long as a sync takes: two threads that take turns
// then share each sync instead of syncing one after the other. A wait that
// saw no ticket come (the other thread was idle, or waited for a lock this
// one holds) turns the waits off for the next kGatherPause syncs.
struct SyncGroup {
  std::mutex mutex;
  std::condition_variable done_cv;   // a sync ended
  std::condition_variable ticket_cv; // a ticket was taken
  int fd = -1;
  uint64_t tickets = 0;        // last ticket given
  uint64_t covered = 0;        // tickets the finished syncs covered
  bool running = false;        // a sync is under way
  const void *last_leader = 0; // the thread that started the last sync
  uint64_t last_sync_ns = 0;   // how long it took
  uint64_t syncs = 0;          // syncs started
  uint64_t gather_from = 0;    // no wait before sync number gather_from
} group;

// This thread's identity for last_leader.
__thread char thread_tag;

constexpr uint64_t kMaxGatherNs = 2000000; // (2 ms)
constexpr uint64_t kGatherPause = 64;

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// Whether PATH's file system keeps its files in memory only (tmpfs, ramfs):
// a power cut loses them whole, and a sync writes nothing.
bool in_memory_file_system(const char *path) {
  struct statfs fs;
  if (statfs(path, &fs) != 0)
    return false;
  return fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC;
}

} // namespace

const char *domain_name(Domain d) {
  for (const auto &n : kDomains)
    if (n.domain == d)
      return n.name;
  return "none";
}

bool choose_domain(const char *path, bool dax, Domain *out, bool quiet) {
  const char *env = getenv("PTM_PERSIST_DOMAIN");
  if (env && *env) {
    for (const auto &n : kDomains) {
      if (strcmp(env, n.name) != 0)
        continue;
      if (PTM_EADR && (n.domain == Domain::Pmem || n.domain == Domain::File)) {
        if (!quiet)
          error("%s: PTM_PERSIST_DOMAIN=%s: this is an eADR build (its "
                "domain is eadr, or page-cache)",
                path, env);
        return false;
      }
      if (!PTM_EADR && n.domain == Domain::Eadr) {
        if (!quiet)
          error("%s: PTM_PERSIST_DOMAIN=eadr: this build writes cache lines "
                "back (configure with -DPTM_EADR=ON for eADR machines)",
                path);
        return false;
      }
      *out = n.domain;
      return true;
    }
    if (!quiet)
      error("%s: PTM_PERSIST_DOMAIN='%s' is not a persistence domain (pmem, "
            "eadr, file or page-cache)",
            path, env);
    return false;
  }
  if (PTM_EADR)
    *out = Domain::Eadr;
  else if (dax)
    *out = Domain::Pmem;
  else if (in_memory_file_system(path))
    *out = Domain::PageCache;
  else
    *out = Domain::File;
  return true;
}

void enter_domain(Domain d, int fd) {
  open_domain = last_open_domain = d;
  std::lock_guard<std::mutex> lock(group.mutex);
  group.fd = fd;
  group.tickets = group.covered = group.last_sync_ns = 0;
  group.syncs = group.gather_from = 0;
  group.last_leader = nullptr;
  if (d == Domain::File)
    fence_work |= kFenceSync;
}

void leave_domain() {
  fence_work &= uint8_t(~kFenceSync);
  open_domain = Domain::None;
  std::lock_guard<std::mutex> lock(group.mutex);
  group.fd = -1;
}

Domain current_domain() { return open_domain; }

Domain last_domain() { return last_open_domain; }

uint64_t file_syncs() {
  std::lock_guard<std::mutex> lock(group.mutex);
  return group.syncs;
}

void sync_file() {
  std::unique_lock<std::mutex> lock(group.mutex);
  uint64_t mine = ++group.tickets;
  group.ticket_cv.notify_all();
  while (group.covered < mine) {
    if (group.running) {
      group.done_cv.wait(lock);
      continue;
    }
    group.running = true;
    if (group.tickets == group.covered + 1 && group.last_leader &&
        group.last_leader != &thread_tag && group.syncs >= group.gather_from) {
      // (alone so far: wait a little for the other thread's commit)
      uint64_t wait = std::min(group.last_sync_ns, kMaxGatherNs);
      if (!group.ticket_cv.wait_for(lock, std::chrono::nanoseconds(wait), [&] {
            return group.tickets > group.covered + 1;
          }))
        group.gather_from = group.syncs + kGatherPause;
    }
    ++group.syncs;
    group.last_leader = &thread_tag;
    uint64_t upto = group.tickets;
    int fd = group.fd;
    lock.unlock();
    uint64_t start = now_ns();
#if PTM_PERSIST_HOOKS
    // (the crash simulator is the storage: it takes the file as it is now)
    (void)fd;
    ptm_persist_observe_sync();
    int rc = 0;
#else
    int rc = fd >= 0 ? fdatasync(fd) : 0;
#endif
    int err = errno;
    uint64_t took = now_ns() - start;
    stat_add(this_thread().stats->syncs);
    lock.lock();
    group.last_sync_ns = took;
    if (rc == 0 && upto > group.covered)
      group.covered = upto;
    group.running = false;
    group.done_cv.notify_all();
    if (rc != 0)
      // The kernel may have dropped the pages it could not write: nothing
      // that follows can be called durable.
      fatal("cannot sync the pool file to its storage: %s (the transactions "
            "since the last sync may be lost)",
            strerror(err));
  }
}

namespace {

// The whole pages that [ADDR, ADDR + N) touches.
Span page_span(const void *addr, size_t n) {
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  auto a = reinterpret_cast<uintptr_t>(addr);
  uintptr_t lo = a & ~(page - 1), hi = (a + n + page - 1) & ~(page - 1);
  return Span{reinterpret_cast<const void *>(lo), size_t(hi - lo)};
}

// The page table entries of the writer's mapping of [LO, HI) (page-aligned)
// dropped: sync_file_unmapping. (Failure costs only the shootdowns.)
void drop_mapping(uintptr_t lo, uintptr_t hi) {
  madvise(reinterpret_cast<void *>(lo), hi - lo, MADV_DONTNEED);
}

} // namespace

void cache_in_base_pages() {
  std::lock_guard<std::mutex> lock(group.mutex);
  if (group.fd >= 0)
    posix_fadvise(group.fd, 0, 0, POSIX_FADV_DONTNEED);
}

void read_no_ahead(void *map, size_t size) { madvise(map, size, MADV_RANDOM); }

void sync_file_unmapping(const void *view, size_t n) {
  Span s = page_span(view, n);
  auto lo = reinterpret_cast<uintptr_t>(s.addr);
  drop_mapping(lo, lo + s.n);
  sync_file();
}

namespace {

// F(LO, HI) for each run of whole pages that SPANS touch (sorted, merged).
template <class F> void for_each_page_run(Span *spans, size_t count, F &&f) {
  for (size_t i = 0; i < count; ++i)
    spans[i] = page_span(spans[i].addr, spans[i].n);
  std::sort(spans, spans + count,
            [](const Span &a, const Span &b) { return a.addr < b.addr; });
  for (size_t i = 0; i < count;) {
    auto lo = reinterpret_cast<uintptr_t>(spans[i].addr);
    uintptr_t hi = lo + spans[i].n;
    for (++i; i < count && reinterpret_cast<uintptr_t>(spans[i].addr) <= hi;
         ++i)
      hi =
          std::max(hi, reinterpret_cast<uintptr_t>(spans[i].addr) + spans[i].n);
    f(lo, hi);
  }
}

} // namespace

void start_sync_pages(const void *view, Span *spans, size_t count) {
  int fd;
  {
    std::lock_guard<std::mutex> lock(group.mutex);
    fd = group.fd;
  }
  for_each_page_run(spans, count, [&](uintptr_t lo, uintptr_t hi) {
    drop_mapping(lo, hi);
#if !PTM_PERSIST_HOOKS
    // (a failure here is found again, and reported, by sync_file_pages)
    if (fd >= 0)
      sync_file_range(fd, off64_t(lo - reinterpret_cast<uintptr_t>(view)),
                      off64_t(hi - lo), SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)view;
#endif
  });
}

void write_through_file(int fd, const void *view, void *at, const void *from,
                        size_t n) {
#if PTM_PERSIST_HOOKS
  // (the crash simulator's storage is the mapping: the same bytes there)
  (void)fd;
  (void)view;
  memcpy(at, from, n);
#else
  auto off = off_t(static_cast<char *>(at) - static_cast<const char *>(view));
  const auto *p = static_cast<const char *>(from);
  while (n > 0) {
    ssize_t w = pwrite(fd, p, n, off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      fatal("cannot write the pool file: %s (the transactions since the "
            "last sync may be lost)",
            w < 0 ? strerror(errno) : "nothing written");
    p += w;
    off += w;
    n -= size_t(w);
  }
#endif
}

void sync_file_pages(Span *spans, size_t count) {
  if (count == 0)
    return;
  {
    std::lock_guard<std::mutex> lock(group.mutex);
    ++group.syncs;
  }
  stat_add(this_thread().stats->syncs);
  for_each_page_run(spans, count, [](uintptr_t lo, uintptr_t hi) {
#if PTM_PERSIST_HOOKS
    // (the crash simulator is the storage: it takes those pages as they are)
    ptm_persist_observe_sync_pages(reinterpret_cast<const void *>(lo), hi - lo);
#else
    if (msync(reinterpret_cast<void *>(lo), hi - lo, MS_SYNC) != 0)
      // As sync_file: what the kernel could not write may be gone.
      fatal("cannot sync the pool file to its storage: %s (the transactions "
            "since the last sync may be lost)",
            strerror(errno));
#endif
  });
}

OwnSyncs::OwnSyncs(bool on) { own_syncs = on; }
OwnSyncs::~OwnSyncs() { own_syncs = false; }

int sync_range(const void *addr, size_t n) {
  Span s = page_span(addr, n);
  if (msync(const_cast<void *>(s.addr), s.n, MS_SYNC) != 0)
    return -errno;
  return 0;
}

int write_log_area(int fd, const char *path, uint64_t off, uint64_t n) {
  Domain d;
  if (!choose_domain(path, /*dax=*/false, &d))
    return -EINVAL;
  if (d != Domain::File)
    return 0;
  constexpr size_t kPiece = size_t(1) << 20;
  std::unique_ptr<char[]> zeros(new char[kPiece]());
  while (n > 0) {
    ssize_t w =
        pwrite(fd, zeros.get(), std::min<uint64_t>(n, kPiece), off_t(off));
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      int err = w < 0 ? errno : EIO;
      error("%s: cannot write the log slots of the new pool file: %s", path,
            strerror(err));
      return -err;
    }
    off += uint64_t(w);
    n -= uint64_t(w);
  }
  return 0;
}

int sync_new_file(int fd, const char *path) {
  Domain d;
  if (!choose_domain(path, /*dax=*/false, &d))
    return -EINVAL;
  if (d != Domain::File)
    return 0;
  if (fdatasync(fd) != 0) {
    int err = errno;
    error("%s: cannot sync the new pool file: %s", path, strerror(err));
    return -err;
  }
  // Its name too: the directory entry.
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  if (!slash)
    snprintf(dir, sizeof dir, ".");
  else if (slash == dir)
    dir[1] = '\0';
  else
    *slash = '\0';
  int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int rc = dfd >= 0 ? fsync(dfd) : -1;
  int err = errno;
  if (dfd >= 0)
    close(dfd);
  if (rc != 0) {
    error("%s: cannot sync the directory of the new pool file: %s", path,
          strerror(err));
    return -err;
  }
  return 0;
}

} // namespace persist
} // namespace ptm

extern "C" const char *ptm_persist_domain(void) {
  return ptm::persist::domain_name(ptm::persist::current_domain());
}
