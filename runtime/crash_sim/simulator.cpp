//===- simulator.cpp - track the persistent image, crash at event N -------===//

#include "runtime/crash_sim/simulator.h"

#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/crash_sim/config.h"
#include "runtime/crash_sim/image.h"
#include "runtime/htm/htm.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/shadow.h"
#include "runtime/pool/persistent_pool.h"
#include "runtime/pool/thread_slot.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace ptm {
namespace crash_sim {

namespace {

enum class Kind : uint8_t { Clwb, Fence, Sync };

struct InFlight {
  uint64_t off;     // of the line in the pool
  uint64_t version; // order of the snapshot among all of this line's
  uint32_t owner;
  char data[kLine];
};

struct State {
  std::mutex mu;
  bool tracking = false;
  // The memory tracked: the pool's mapping, or under buffered durability
  // the PM view (the file), whose copy at BASE is volatile DRAM.
  char *base = nullptr;
  uint64_t size = 0;
  uint64_t epoch = 0;
  // The file domain (persist/domain.h): a sync makes the whole file
  // persistent, clwb and fences nothing; a crash keeps any of the pages
  // written since (compose_file_image).
  bool file_model = false;
  char *persistent = nullptr; // shadow copy: the persistent image
  // Per line, the version of the snapshot the persistent image holds (0:
  // the content found when tracking started). A line's write-backs reach
  // NVM in its coherence order: a fence never makes a line older than a
  // newer snapshot another thread already made persistent, and an older
  // in-flight snapshot is no longer a possible content of the line.
  std::vector<uint64_t> persistent_version;
  uint64_t versions = 0; // snapshots taken (clwb events on pool lines)
  std::vector<InFlight> in_flight;
  Config config;
  uint64_t events = 0, clwbs = 0, fences = 0, syncs = 0, dropped = 0;
  bool count_at_exit = false;
};

// Never destroyed: hooks may run during exit.
State &state() {
  static State *s = new State;
  return *s;
}

std::atomic<uint32_t> next_owner{1};
__thread uint32_t tls_owner;

// The mutation's position inside the calling thread's transaction attempt,
// or outside transactions inside its unit (persist::begin_unit).
struct TxPosition {
  uint64_t commits = ~0ull, aborts = ~0ull, attempt = 0, unit = 0;
  uint64_t fences = 0, clwbs = 0, syncs = 0;
};
__thread TxPosition tls_position;
__thread uint64_t tls_unit; // units this thread began

uint32_t owner() {
  if (!tls_owner)
    tls_owner = next_owner.fetch_add(1);
  return tls_owner;
}

void print_count() {
  State &s = state();
  fprintf(stderr,
          "ptm: crash-sim: %llu persistence events (%llu clwb, %llu sfence, "
          "%llu sync)%s%s\n",
          (unsigned long long)(s.clwbs + s.fences + s.syncs),
          (unsigned long long)s.clwbs, (unsigned long long)s.fences,
          (unsigned long long)s.syncs,
          s.config.syncs_only ? " (the syncs numbered)" : "",
          s.dropped ? " (mutated: some were dropped)" : "");
}

void start_tracking(State &s, char *live, uint64_t size, uint64_t epoch) {
  std::string problem;
  if (!read_config(&s.config, &problem))
    fatal("crash simulator: %s", problem.c_str());
  if (s.config.count && !s.count_at_exit) {
    s.count_at_exit = true;
    atexit(print_count);
  }
  free(s.persistent);
  s.base = live;
  s.size = size;
  s.epoch = epoch;
  s.file_model = persist::current_domain() == persist::Domain::File;
  s.persistent = static_cast<char *>(malloc(s.size));
  if (!s.persistent)
    fatal("crash simulator: no memory for a %llu-byte shadow of the pool",
          (unsigned long long)s.size);
  memcpy(s.persistent, s.base, s.size);
  s.persistent_version.assign(s.size / kLine, 0);
  s.versions = 0;
  s.in_flight.clear();
  s.tracking = true;
}

// The rest of this process's command line, for the reproduction hint.
std::string command_line() {
  std::string out;
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return out;
  char buf[4096];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  for (ssize_t i = 0; i < n; ++i)
    out += buf[i] ? buf[i] : ' ';
  return out;
}

// ---- Stopping the other threads at the crash ----
//
// The crashing thread holds the simulator's lock, so no other thread passes
// a persistence event; but other threads keep storing into the pool (and a
// driver's threads keep recording what returned) while the image is
// composed from the live mapping. Each other thread of the process is
// stopped by a signal whose handler never returns, so the live lines are
// one instant's (no line is read half before and half after another
// thread's stores) and nothing happens after the crash point.

std::atomic<int> parked{0};

void park(int) {
  parked.fetch_add(1);
  for (;;)
    pause();
}

int freeze_signal() { return SIGRTMIN + 4; }

// Signals every other thread and waits (at most ~5 s) until each one that
// still exists is in the handler. Called before anything of the image is read;
// allocates nothing once the first thread is stopped (it may hold malloc's
// lock).
void freeze_other_threads() {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = park;
  sigfillset(&sa.sa_mask);
  sigaction(freeze_signal(), &sa, nullptr);
  pid_t self = pid_t(syscall(SYS_gettid));
  pid_t tids[256];
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  if (!d)
    return;
  while (dirent *e = readdir(d)) {
    pid_t tid = pid_t(atoi(e->d_name));
    if (tid > 0 && tid != self && n < 256)
      tids[n++] = tid;
  }
  closedir(d);
  for (int i = 0; i < n; ++i)
    syscall(SYS_tgkill, getpid(), tids[i], freeze_signal());
  // The threads still there: one that was exiting when it was listed (a
  // driver's worker done with its operations) may take the signal and never
  // run the handler; it leaves the list instead of parking.
  auto alive = [&] {
    int k = 0;
    for (int i = 0; i < n; ++i)
      if (syscall(SYS_tgkill, getpid(), tids[i], 0) == 0)
        ++k;
    return k;
  };
  struct timespec pause_1ms = {0, 1000000};
  for (int waited = 0; parked.load() < alive() && waited < 5000; ++waited)
    nanosleep(&pause_1ms, nullptr);
  int left = alive() - parked.load();
  if (left > 0)
    fprintf(stderr,
            "ptm: crash-sim: warning: %d of %d other threads did not stop "
            "(signal %d blocked?); the image may hold their later stores\n",
            left, n, freeze_signal());
}

[[noreturn]] void crash(State &s, Kind kind) {
  // The newest snapshot of each line that is newer than its persistent one.
  std::unordered_map<uint64_t, const char *> newest;
  for (const InFlight &f : s.in_flight)
    if (f.version > s.persistent_version[f.off / kLine])
      newest[f.off] = f.data;
  std::string commandline = command_line();
  std::string mutation =
      s.config.mutation == Mutation::Off ? std::string()
      : s.config.mutation == Mutation::UnflushedExtension ||
              s.config.mutation == Mutation::UnawaitedCommit
          ? std::string(" PTM_CRASH_MUTATE=") + mutation_name(s.config.mutation)
          : " PTM_CRASH_MUTATE=" +
                std::string(mutation_name(s.config.mutation)) + ":" +
                std::to_string(s.config.mutate_nth);
  if (s.config.syncs_only)
    mutation += " PTM_CRASH_EVENTS=sync";
  freeze_other_threads();
  ImageStats st;
  if (s.file_model)
    compose_file_image(s.persistent, s.base, s.size, s.config.mode,
                       s.config.seed, &st);
  else
    compose_image(s.persistent, s.base, s.size, newest, s.config.mode,
                  s.config.seed, &st);
  std::string problem;
  if (!write_image(s.config.image.c_str(), s.persistent, s.size, &problem))
    fatal("crash simulator: %s", problem.c_str());
  fprintf(stderr,
          "ptm: crash-sim: crash at %s %llu (%s), mode %s, seed %llu: "
          "image %s (kept %llu of %llu dirty %s, %llu of %llu in-flight "
          "lines)\n"
          "ptm: crash-sim: reproduce (from the pool as this process found "
          "it): PTM_CRASH_AT=%llu PTM_CRASH_MODE=%s "
          "PTM_CRASH_SEED=%llu PTM_CRASH_IMAGE=%s%s %s\n",
          s.config.syncs_only ? "sync" : "event",
          (unsigned long long)s.config.crash_at,
          kind == Kind::Sync    ? "sync"
          : kind == Kind::Fence ? "sfence"
                                : "clwb",
          mode_name(s.config.mode), (unsigned long long)s.config.seed,
          s.config.image.c_str(), (unsigned long long)st.dirty_kept,
          (unsigned long long)st.dirty, s.file_model ? "pages" : "lines",
          (unsigned long long)st.in_flight_kept,
          (unsigned long long)st.in_flight,
          (unsigned long long)s.config.crash_at, mode_name(s.config.mode),
          (unsigned long long)s.config.seed, s.config.image.c_str(),
          mutation.c_str(), commandline.c_str());
  fflush(stderr);
  _exit(kCrashExitStatus);
}

// True if the mutation drops this event (the N-th of its kind in the
// calling thread's transaction attempt, or in its unit of work outside
// transactions). Elsewhere nothing is dropped.
bool mutated(const Config &c, Kind kind) {
  if (c.mutation == Mutation::Off)
    return false;
  TxThread &tx = this_thread();
  TxPosition now;
  if (tx.attempt != 0) {
    now.commits = tx.stats->commits;
    now.aborts = tx.stats->aborts;
    now.attempt = tx.attempt;
  } else if (tls_unit != 0) {
    now.unit = tls_unit;
  } else {
    return false;
  }
  TxPosition &p = tls_position;
  if (p.commits != now.commits || p.aborts != now.aborts ||
      p.attempt != now.attempt || p.unit != now.unit)
    p = now;
  if (kind == Kind::Fence)
    return c.mutation == Mutation::DropFence && ++p.fences == c.mutate_nth;
  if (kind == Kind::Sync)
    return c.mutation == Mutation::DropSync && ++p.syncs == c.mutate_nth;
  return c.mutation == Mutation::DropClwb && ++p.clwbs == c.mutate_nth;
}

// ADDR: the line written back (clwb); the first of N bytes whose pages a
// sync made durable (N 0: the whole file).
void observe(Kind kind, const void *addr, size_t n = 0) {
  // No emulated hardware transaction runs during an event (htm.h): an image
  // never holds its speculative stores, as a real one cannot.
  struct NoHtm {
    NoHtm() { htm::Emulation::lock(); }
    ~NoHtm() { htm::Emulation::unlock(); }
  } no_htm;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  const pool::PoolView &v = pool::open_view;
  if (!v.base) {
    s.tracking = false;
    return;
  }
  // Buffered durability: the file is the PM view. (Nothing issues a
  // persistence event on the pool's DRAM copy once the mode has ended:
  // close_pool leaves it alone.)
  bool pm_view = persist::flush_insn == persist::FlushInsn::Shadow;
  uint64_t epoch = pool::pool_epoch.load(std::memory_order_relaxed);
  char *live = pm_view ? v.base + persist::shadow.delta : v.base;
  if (!s.tracking || live != s.base ||
      (s.epoch != 0 && epoch != 0 && epoch != s.epoch))
    start_tracking(s, live, v.size(), epoch);
  else if (s.epoch == 0)
    s.epoch = epoch;
  ++(kind == Kind::Sync ? s.syncs : kind == Kind::Fence ? s.fences : s.clwbs);
  if ((!s.config.syncs_only || kind == Kind::Sync) &&
      ++s.events == s.config.crash_at)
    crash(s, kind);
  if (mutated(s.config, kind)) {
    ++s.dropped;
    return;
  }
  if (kind == Kind::Sync && n != 0) { // (the file domain's: its pages)
    uint64_t b = reinterpret_cast<uint64_t>(s.base);
    uint64_t lo = reinterpret_cast<uint64_t>(addr) & ~(kPage - 1);
    uint64_t hi = reinterpret_cast<uint64_t>(addr) + n;
    lo = std::max(lo, b);
    hi = std::min(hi, b + s.size);
    if (lo < hi)
      memcpy(s.persistent + (lo - b), s.base + (lo - b), hi - lo);
    return;
  }
  if (kind == Kind::Sync) { // (the file domain's: the whole file)
    memcpy(s.persistent, s.base, s.size);
    s.in_flight.clear();
    return;
  }
  if (s.file_model)
    return; // (a line written back and fenced is in the page cache only)
  if (kind == Kind::Clwb) {
    uint64_t a = reinterpret_cast<uint64_t>(addr) & ~(kLine - 1);
    uint64_t b = reinterpret_cast<uint64_t>(s.base);
    if (a < b || a - b + kLine > s.size)
      return; // not pool memory
    InFlight f;
    f.off = a - b;
    f.version = ++s.versions;
    f.owner = owner();
    memcpy(f.data, s.base + f.off, kLine);
    s.in_flight.push_back(f);
    return;
  }
  uint32_t me = owner();
  size_t keep = 0;
  for (size_t i = 0; i < s.in_flight.size(); ++i) {
    InFlight &f = s.in_flight[i];
    if (f.owner == me) {
      uint64_t &persisted = s.persistent_version[f.off / kLine];
      if (f.version > persisted) {
        memcpy(s.persistent + f.off, f.data, kLine);
        persisted = f.version;
      }
    } else
      s.in_flight[keep++] = f;
  }
  s.in_flight.resize(keep);
}

} // namespace

} // namespace crash_sim
} // namespace ptm

extern "C" void ptm_persist_observe_flush(const void *line) {
  ptm::crash_sim::observe(ptm::crash_sim::Kind::Clwb, line);
}

extern "C" void ptm_persist_observe_fence(void) {
  ptm::crash_sim::observe(ptm::crash_sim::Kind::Fence, nullptr);
}

extern "C" void ptm_persist_observe_sync(void) {
  ptm::crash_sim::observe(ptm::crash_sim::Kind::Sync, nullptr);
}

extern "C" void ptm_persist_observe_sync_pages(const void *addr, size_t n) {
  ptm::crash_sim::observe(ptm::crash_sim::Kind::Sync, addr, n);
}

extern "C" void ptm_persist_observe_unit(void) { ++ptm::crash_sim::tls_unit; }

extern "C" int ptm_persist_seeded_unflushed_extension(void) {
  ptm::crash_sim::State &s = ptm::crash_sim::state();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.tracking &&
         s.config.mutation == ptm::crash_sim::Mutation::UnflushedExtension;
}

extern "C" int ptm_persist_seeded_early_reuse(void) {
  ptm::crash_sim::State &s = ptm::crash_sim::state();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.tracking &&
         s.config.mutation == ptm::crash_sim::Mutation::EarlyReuse;
}

extern "C" int ptm_persist_seeded_unawaited_commit(void) {
  ptm::crash_sim::State &s = ptm::crash_sim::state();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.tracking &&
         s.config.mutation == ptm::crash_sim::Mutation::UnawaitedCommit;
}

extern "C" uint64_t ptm_crash_sim_events(void) {
  ptm::crash_sim::State &s = ptm::crash_sim::state();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.events;
}
