//===- persistent_pool.cpp - open, recover, close; slots; root ------------===//

#include "runtime/pool/persistent_pool.h"

#include "ptm.h"
#include "runtime/base/asymmetric_fence.h"
#include "runtime/base/report.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/log_ring.h"
#include "runtime/persist/log_stage.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/persistent_redo_log.h"
#include "runtime/pool/commit_queue.h"
#include "runtime/pool/deferred_free.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/freed_blocks.h"
#include "runtime/pool/heap_init.h"
#include "runtime/pool/open_checks.h"
#include "runtime/pool/persister.h"
#include "runtime/pool/pool_file.h"
#include "runtime/pool/recovery.h"
#include "runtime/pool/slot_lease.h"
#include "runtime/pool/speculative.h"
#include "runtime/stm/reuse_epoch.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <pthread.h>
#include <sched.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace ptm {

__thread SlotLogIndex tls_log_index;
__thread OutsideEntries tls_outside;
uintptr_t chunk_lo, chunk_hi;

namespace pool {

std::recursive_mutex pool_mutex;
__thread SlotHandle tls_slot;
std::atomic<uint64_t> pool_epoch{0};
HeapImpl *pool_heap;
PoolView open_view;

namespace {

uint64_t epoch_counter;
std::atomic<uint64_t> commit_counter{0};
char open_path[PATH_MAX];
int pool_fd = -1;     // holds the open pool's owner lock
bool open_temporary;  // the runtime's private pool
pid_t open_pid;       // the process that opened it (not a forked child)
bool exit_close_set;  // close_at_exit registered
bool closing_at_exit; // close_at_exit runs: the mappings stay
// How long close_at_exit waits for a thread to leave its transaction.
constexpr uint64_t kExitWaitRounds = 1000000;

void close_at_exit();

} // namespace

void write_open_state(char *base, uint64_t state) {
  auto *word = reinterpret_cast<uint64_t *>(base + kOpenStateOffset);
  __atomic_store_n(word, state, __ATOMIC_RELEASE);
  persist::persist_range(word, sizeof *word);
  persist::sync_range(word, sizeof *word);
}

// Options of a pool the runtime creates (PTM_POOL absent, or the temporary
// pool): PTM_POOL_SLOTS sets the number of thread slots (threads running
// transactions at once), PTM_POOL_SLOT_SIZE their size, PTM_POOL_MODE the
// file's permission bits (default owner-only), PTM_POOL_SPARSE=1 a sparse
// file (default: its space reserved, docs/pool.md "Deploying").
static CreateOptions runtime_create_options() {
  CreateOptions opt;
  opt.creator = ptm_algorithm();
  const char *slots = getenv("PTM_POOL_SLOTS");
  if (slots && *slots) {
    char *end;
    errno = 0;
    unsigned long n = strtoul(slots, &end, 10);
    if (errno || *end || slots[0] < '0' || slots[0] > '9' || n == 0 ||
        n > kMaxSlotCount)
      fatal("PTM_POOL_SLOTS='%s' is not a slot count (1 to %u)", slots,
            kMaxSlotCount);
    opt.slot_count = uint32_t(n);
  }
  const char *env = getenv("PTM_POOL_SLOT_SIZE");
  uint64_t slot_size = 0;
  if (env && *env) {
    if (!parse_size(env, &slot_size) || slot_size == 0)
      fatal("PTM_POOL_SLOT_SIZE='%s' is not a size (e.g. 1M, 16M)", env);
    opt.slot_size = slot_size;
  }
  const char *mode = getenv("PTM_POOL_MODE");
  if (mode && *mode && !parse_mode(mode, &opt.mode))
    fatal("PTM_POOL_MODE='%s' is not a pool file mode (octal, at most 777, "
          "with the owner's read and write bits: e.g. 600, 640, 660)",
          mode);
  const char *sparse = getenv("PTM_POOL_SPARSE");
  if (sparse && *sparse) {
    if (strcmp(sparse, "0") != 0 && strcmp(sparse, "1") != 0)
      fatal("PTM_POOL_SPARSE='%s' is not 0 or 1", sparse);
    opt.sparse = sparse[0] == '1';
  }
  return opt;
}

// Recovers a private copy-on-write mapping of PATH (header H) and checks
// what an open requires of it: 0, or -errno after the message; the file is
// not written.
static int check_private_copy(const char *path, const PoolHeader &h) {
  PoolView copy;
  copy.header = h;
  int rc = map_pool(path, h, /*writable=*/false, &copy.base);
  if (rc != 0)
    return rc;
  rc = recover(copy, path, nullptr);
  if (rc == 0) {
    HeapImpl heap;
    rc = check_recovered_pool(copy, path, &heap);
  }
  unmap_pool(copy.base, h.pool_size);
  return rc;
}

static int open_locked(const char *path, int fd, const PoolHeader &h,
                       const DurabilityMode &durability, bool temporary);

int open_pool(const char *path, size_t size, bool temporary) {
  std::lock_guard<std::recursive_mutex> lock(pool_mutex);
  if (!path || !*path) {
    error("ptm_open: no pool path given");
    return -EINVAL;
  }
  if (open_view.base) {
    error("%s: cannot open: pool '%s' is already open (ptm_close it first)",
          path, open_path);
    return -EBUSY;
  }
  DurabilityMode durability;
  int mode_rc = durability_from_env(path, &durability);
  bool on_persister = false;
  if (mode_rc == 0)
    mode_rc = strict_on_persister(path, &on_persister);
  if (mode_rc != 0)
    return mode_rc;
  durability.awaited = on_persister && !durability.buffered; // (if on a file)
  // The owner lock first: nothing is read, recovered or written while
  // another process has the pool open. It is held until close_pool.
  PoolHeader h;
  // (Read-only is enough for the lock; map_pool opens for writing.)
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  int rc = 0;
  if (fd < 0 && errno == ENOENT) {
    if (size == 0) {
      error("%s: no such pool file (pass a size to ptm_open to create one)",
            path);
      return -ENOENT;
    }
    rc = create_pool_file(path, size, runtime_create_options(), &h, &fd);
    if (rc != 0)
      return rc;
  } else if (fd < 0) {
    int err = errno;
    error("%s: cannot open: %s", path, strerror(err));
    return -err;
  } else {
    rc = lock_pool_file(fd, path, /*exclusive=*/true);
  }
  if (rc == 0)
    rc = read_pool_header(path, size, &h, /*quiet_enoent=*/false);
  if (rc != 0) {
    close(fd);
    return rc;
  }
  rc = open_locked(path, fd, h, durability, temporary);
  if (rc != 0)
    close(fd);
  else
    pool_fd = fd;
  return rc;
}

// open_pool with PATH locked (through FD) and its header H validated.
static int open_locked(const char *path, int fd, const PoolHeader &h,
                       const DurabilityMode &durability, bool temporary) {
  warn_if_others_can_write(path);
  // A dry run first: recovery and every check on a private copy, so that a
  // pool refused for any reason is left as it was (open_checks.h).
  int rc = check_private_copy(path, h);
  if (rc != 0)
    return rc;
  reserve_existing(path); // (a valid pool only)
  char *base;
  bool dax = false;
  rc = map_pool(path, h, /*writable=*/true, &base, &dax);
  if (rc != 0)
    return rc;
  // (the private temporary pool is gone when the process ends: no sync
  // makes it outlive a power cut)
  persist::Domain domain = persist::Domain::PageCache;
  if (!temporary && !persist::choose_domain(path, dax, &domain)) {
    unmap_pool(base, h.pool_size);
    return -EINVAL;
  }
  // (before recovery, whose writes the domain makes durable)
  persist::enter_domain(domain, fd);
  open_view.base = base;
  open_view.header = h;
  // Recovery first: nothing else reads the pool before its logs are applied.
  rc = recover(open_view, path, nullptr);
  auto *heap = new HeapImpl();
  if (rc == 0)
    rc = check_recovered_pool(open_view, path, heap);
  if (rc == 0 && open_view.root()->heap_formatted != kHeapFormatted) {
    rc = format_heap_if_needed(open_view, path);
    std::string problem;
    if (rc == 0 &&
        !heap->attach(open_view.heap(), open_view.heap_size(), &problem)) {
      error("%s: the new heap is damaged: %s", path, problem.c_str());
      rc = -EIO;
    }
  }
  if (rc != 0) {
    delete heap;
    unmap_pool(base, h.pool_size);
    open_view = PoolView();
    persist::leave_domain();
    return rc;
  }
  // Freed memory is reused only after the transactions that may still read
  // it (reuse_epoch.h).
  static const ReuseGate gate{&ReuseEpoch::passed, &ReuseEpoch::now};
  heap->set_reuse_gate(&gate);
  pool_heap = heap;
  chunk_lo = reinterpret_cast<uintptr_t>(open_view.heap());
  chunk_hi = reinterpret_cast<uintptr_t>(base) + h.pool_size;
  snprintf(open_path, sizeof open_path, "%s", path);
  reset_slot_leases();
  commit_counter.store(0);
  ReplayFloor::reset();
  // (sp3 runs on the two views in strict mode too: speculative.h; strict
  // durability in the file domain through the persister: durability.h)
  DurabilityMode mode = durability;
  // (the persister takes a slot of its own, three to eight for its ring in
  // the file domain: a pool of one slot keeps it for the program and syncs
  // at the fences)
  mode.awaited = durability.awaited && domain == persist::Domain::File &&
                 h.slot_count >= 2;
  // Open until closed cleanly (before the DRAM copy: in the file), and
  // closed cleanly at the program's exit if it does not close it itself.
  write_open_state(base, kPoolOpen);
  open_temporary = temporary;
  open_pid = getpid();
  if (!exit_close_set) {
    exit_close_set = true;
    atexit(close_at_exit);
  }
  // (strict in the file domain: base pages, for the mapping the fences sync
  // and, in start_buffered, for the persister's views)
  if (domain == persist::Domain::File && !mode.buffered) {
    persist::read_no_ahead(base, h.pool_size);
    persist::cache_in_base_pages();
  }
  if (mode.buffered || mode.awaited || library_speculative)
    start_buffered(open_view, path, mode);
  // (before the epoch lets any transaction in: enter_tx's fence_light)
  asymmetric_fence_init();
  pool_epoch.store(++epoch_counter, std::memory_order_seq_cst);
  return 0;
}

static_assert(PTM_MAX_POOL_SLOTS == kMaxSlotCount, "ptm.h and pool_format.h");

unsigned open_slot_count() {
  std::lock_guard<std::recursive_mutex> lock(pool_mutex);
  return open_view.base ? open_view.header.slot_count : 0;
}

void leave_tx_heap_work(SlotHandle &s) {
  // Still inside the pool (ptm_close waits): the heap is there. Chunks the
  // attempt took: committed, or free again. Its frees, and earlier ones of
  // the slot still parked: settled once no record can be replayed over
  // their blocks (freed_blocks.h), all of them now when an allocation waits
  // for held memory (REUSE_WAIT).
  uint64_t wait = s.reuse_wait;
  uint64_t parked = 0;
  if (pool_heap) {
    pool_heap->end_attempt(heap_arena(s.index));
    parked = settle_freed_blocks(s, /*now=*/wait != 0);
  }
  s.free_order = 0;
  // Buffered durability: a thread whose queue is over its budget waits for
  // the persister (commit_queue.h).
  if (buffered)
    wait_for_queue_room(s);
  s.frees_held = false;
  s.heap_work = false;
  s.parked_tag = parked; // (an end settles them once a floor has passed)
  s.reuse_wait = 0;
  presence[s.presence].inside.store(0, std::memory_order_release);
  if (slot_waiters.load(std::memory_order_relaxed) != 0)
    give_slot_back(s);
  if (wait)
    ReuseEpoch::wait(wait);
  free_passed_blocks(/*wait=*/false);
}

void await_commit() {
  SlotHandle &s = tls_slot;
  uint64_t seq = s.awaited_seq != 0
                     ? s.awaited_seq
                     : commit_seq.load(std::memory_order_acquire);
  s.awaited_seq = 0;
  if (persist::seeded_unawaited_commit())
    --seq; // (the commit before it)
  if (seq != 0)
    persister_wait(seq);
}

void close_pool() {
  std::lock_guard<std::recursive_mutex> lock(pool_mutex);
  if (!open_view.base)
    return;
  if (this_thread().depth > 0) {
    error("ptm_close inside a transaction: the pool stays open");
    return;
  }
  // Quiesce: no new transaction enters (enter_tx sees the epoch change),
  // running ones finish.
  uint64_t epoch = pool_epoch.exchange(0, std::memory_order_seq_cst);
  fence_heavy(); // pairs with enter_tx's fence_light
  if (closing_at_exit) {
    // (a thread still inside a transaction when the program ends: if it
    // does not leave within the bound, the pool stays open, left as a
    // crash leaves it, and is recovered at the next open)
    if (!wait_until_absent(kExitWaitRounds)) {
      pool_epoch.store(epoch, std::memory_order_seq_cst);
      return;
    }
  } else {
    wait_until_absent();
  }
  end_slot_leases();
  if (buffered) {
    // Buffered durability: every commit written to the file by the
    // persister, whose records it leaves idle (the thread slots hold no
    // record in this mode: their commits only queue), and the PM view
    // unmapped. The pool's range is now its DRAM copy, which the unmap
    // below drops: nothing written to it from here on reaches the file.
    stop_buffered(open_view);
  } else {
    // Log ring: the last commits' data lines, then their records idle.
    LogRing::close_all();
    settle_at_close(open_view);
    // The page cache pushed to the file, in every domain (a clean close is
    // on the disk), then the pool marked closed cleanly.
    persist::sync_range(open_view.base, open_view.header.pool_size);
    write_open_state(open_view.base, 0);
  }
  if (!closing_at_exit) { // (at exit, another thread may still read it)
    delete pool_heap;
    unmap_pool(open_view.base, open_view.header.pool_size);
  }
  pool_heap = nullptr;
  chunk_lo = chunk_hi = 0;
  open_view = PoolView();
  open_path[0] = '\0';
  persist::leave_domain();
  close(pool_fd); // (the owner lock goes with it)
  pool_fd = -1;
}

namespace {

// A program that ends without ptm_close, not inside a transaction: its pool
// closed as ptm_close closes it (nothing left to replay, marked closed
// cleanly), but left mapped: a thread the exit has not stopped yet may
// still read it (a transaction a thread begins after this cannot open it
// again over that mapping: the open fails with its message). A forked
// child's exit leaves its parent's pool alone.
void close_at_exit() {
  if (this_thread().depth > 0)
    return; // (exit inside a transaction: left as a crash leaves it)
  std::lock_guard<std::recursive_mutex> lock(pool_mutex);
  if (!open_view.base || open_temporary || getpid() != open_pid)
    return;
  closing_at_exit = true;
  close_pool();
  closing_at_exit = false;
}

} // namespace

void ensure_pool_open() {
  std::lock_guard<std::recursive_mutex> lock(pool_mutex);
  if (open_view.base)
    return;
  const char *env = getenv("PTM_POOL");
  uint64_t size = kDefaultPoolSize;
  const char *size_env = getenv("PTM_POOL_SIZE");
  if (size_env && *size_env && !parse_size(size_env, &size))
    fatal("PTM_POOL_SIZE='%s' is not a size (e.g. 64M, 1G)", size_env);
  if (env && *env) {
    struct stat st;
    bool exists = stat(env, &st) == 0;
    int rc = open_pool(env, exists ? 0 : size);
    if (rc != 0)
      fatal("cannot open the pool PTM_POOL='%s' (%s)", env, strerror(-rc));
    return;
  }
  // The private temporary pool: created (O_EXCL, owner-only) in a new
  // directory that only this user can enter (mkdtemp: mode 0700), so no
  // other user can reach the file between its creation and its unlink.
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  char private_dir[PATH_MAX], path[PATH_MAX];
  snprintf(private_dir, sizeof private_dir, "%s/ptm-pool-XXXXXX", dir);
  if (!mkdtemp(private_dir))
    fatal("cannot create a temporary pool in %s: %s", dir, strerror(errno));
  snprintf(path, sizeof path, "%s/pool", private_dir);
  CreateOptions opt = runtime_create_options();
  opt.mode = kDefaultPoolMode;
  PoolHeader h;
  int rc = create_pool_file(path, size, opt, &h);
  bool created = rc == 0;
  if (created)
    rc = open_pool(path, 0, /*temporary=*/true);
  // Private: gone when the process ends, even by a crash.
  unlink(path);
  rmdir(private_dir);
  if (rc != 0)
    fatal("cannot %s a temporary pool in %s (%s)", created ? "open" : "create",
          dir, strerror(-rc));
}

uint64_t next_commit_order() {
  // (seq_cst: the log ring's floor relies on orders taken in that order)
  return commit_counter.fetch_add(1, std::memory_order_seq_cst) + 1;
}

void *root_object(size_t size, void (*create)(size_t)) {
  ensure_pool_open();
  RootDescriptor *d = open_view.root();
  uint64_t off = __atomic_load_n(&d->offset, __ATOMIC_ACQUIRE);
  if (off == 0) {
    if (size == 0) {
      error("ptm_root(0): the pool has no root object yet");
      return nullptr;
    }
    create(size);
    off = __atomic_load_n(&d->offset, __ATOMIC_ACQUIRE);
    if (off == 0) {
      error("ptm_root(%zu): the pool's heap has no room for the root object",
            size);
      return nullptr;
    }
  }
  if (size > d->size) {
    error("ptm_root(%zu): the root object was created with %llu bytes and "
          "cannot grow",
          size, (unsigned long long)d->size);
    return nullptr;
  }
  return open_view.base + off;
}

} // namespace pool
} // namespace ptm
