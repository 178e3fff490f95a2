//===- ptm-pool.cpp - inspect, check and create pool files ----------------===//
//
//   ptm-pool info FILE [--force]   header, size, base, root, slots with
//                                  pending logs, heap statistics
//   ptm-pool check FILE [--force]  header + pending logs + heap; exit 0 if
//                                  sound, 1 with a message on damage
//   ptm-pool create FILE SIZE [--slots N] [--slot-size SIZE] [--base ADDR]
//                   [--mode OCTAL] [--sparse] [--force]
//
// info and check hold a shared lock on the pool file while they read it: a
// pool a process has open (its owner lock) is refused with exit status 3,
// since what a running program is writing is not consistent; --force reads
// it anyway, saying so. create reserves the file's space (--sparse: not).
//
// info and check never change the file: the pool is mapped privately
// (copy-on-write) at its address, and pending logs are recovered in that
// copy only, to look at the heap as the next open will see it. Both warn
// (stderr) about a pool file that other users can write.
// create makes an owner-only file (0600) unless --mode says otherwise; it
// refuses an existing FILE unless --force, which builds the new pool beside
// it and renames it over FILE only once it is complete (a failure leaves
// FILE as it was).
// Bad arguments: usage and exit status 2.
//
//===----------------------------------------------------------------------===//

#include "runtime/palloc/persistent_heap.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/persist.h"
#include "runtime/pool/heap_init.h"
#include "runtime/pool/open_checks.h"
#include "runtime/pool/pool_file.h"
#include "runtime/pool/pool_view.h"
#include "runtime/pool/recovery.h"

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

extern "C" const char *ptm_algorithm(void) { return "ptm-pool"; }

using namespace ptm;
using namespace ptm::pool;

namespace {

int usage() {
  fprintf(stderr,
          "usage: ptm-pool info FILE [--force]\n"
          "       ptm-pool check FILE [--force]\n"
          "       ptm-pool create FILE SIZE [--slots N] [--slot-size SIZE] "
          "[--base ADDR]\n"
          "                       [--mode OCTAL] [--sparse] [--force]\n"
          "SIZE: bytes, or with a K, M, G or T suffix (64M, 1G)\n"
          "--slot-size: default 1M on an ordinary file system (the file "
          "domain) when the\n"
          "          slots take at most an eighth of the pool, else 256K\n"
          "OCTAL: the new file's permissions (default 600: owner-only; at "
          "most 777,\n"
          "       with the owner's read and write bits; the umask applies)\n"
          "--sparse: do not reserve the file's space now (a program using "
          "the pool is\n"
          "          killed by SIGBUS if the file system fills)\n"
          "create --force: replace an existing FILE (not one in use)\n"
          "info, check --force: read a pool that a process has open "
          "(exit status 3\n"
          "          without it); what it shows may be inconsistent\n");
  return 2;
}

const char *state_name(SlotState s) {
  switch (s) {
  case kIdle:
    return "idle";
  case kUndoActive:
    return "undo-active";
  case kRedoCommitted:
    return "redo-committed";
  case kRedoSealed:
    return "redo-sealed";
  case kUndoLogged:
    return "undo-logged";
  case kRedoStream:
    return "speculative log";
  }
  return "unknown";
}

constexpr int kInUse = 3; // exit status: the pool is open in a process

// A shared lock on PATH for as long as this tool runs (a process that opens
// the pool meanwhile is refused): 0, or an exit status. FORCE: a pool in use
// is read anyway, with a warning.
int lock_for_reading(const char *path, bool force) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0; // (read_pool_header says why)
  if (force) {
    if (flock(fd, LOCK_SH | LOCK_NB) != 0) {
      long pid = pool_lock_holder(fd);
      fprintf(stderr,
              "ptm-pool: warning: %s: the pool is in use (process %ld has it "
              "open): read anyway (--force); what it shows may be "
              "inconsistent\n",
              path, pid);
    }
    return 0;
  }
  if (lock_pool_file(fd, path, /*exclusive=*/false) == 0)
    return 0; // (held until exit)
  close(fd);
  fprintf(stderr,
          "ptm-pool: %s: not read while a process has it open (what it is "
          "writing is not consistent); stop it first, or --force to read it "
          "anyway\n",
          path);
  return kInUse;
}

// Maps PATH privately at its base; recovers the copy. Returns 0 or an exit
// status (messages printed).
int open_copy(const char *path, bool force, PoolView *view,
              std::vector<SlotScan> *pend) {
  if (int rc = lock_for_reading(path, force))
    return rc;
  PoolHeader h;
  if (read_pool_header(path, 0, &h, /*quiet_enoent=*/false) != 0)
    return 1;
  warn_if_others_can_write(path);
  char *base;
  if (map_pool(path, h, /*writable=*/false, &base) != 0)
    return 1;
  view->base = base;
  view->header = h;
  *pend = pending_slots(*view);
  return 0;
}

// How the pool was left, in words (its open state and pending records).
std::string close_state(const PoolView &v, size_t pending) {
  char n[64];
  snprintf(n, sizeof n, "%zu record(s) with logs to recover at the next open",
           pending);
  if (*v.open_state() == kPoolOpen)
    return std::string("not closed cleanly (its program still runs, or was "
                       "killed or crashed); ") +
           n;
  if (pending == 0)
    return "clean (closed cleanly: nothing to recover)";
  return n; // (left by a runtime that did not mark its pools)
}

void print_uuid(const uint8_t *u) {
  for (int i = 0; i < 16; ++i)
    printf("%02x%s", u[i], (i == 3 || i == 5 || i == 7 || i == 9) ? "-" : "");
}

// What a commit's durability means in domain D (docs/pool.md).
const char *domain_meaning(persist::Domain d) {
  switch (d) {
  case persist::Domain::Pmem:
    return "persistent memory: a commit is durable once its lines are "
           "written back and fenced";
  case persist::Domain::Eadr:
    return "eADR: the caches are persistent";
  case persist::Domain::File:
    return "an ordinary file: commits are synced to the storage, durable "
           "against power cuts";
  case persist::Domain::PageCache:
    return "not synced: durable against a process crash, not a power cut";
  case persist::Domain::None:
    break;
  }
  return "unknown";
}

int cmd_info(const char *path, bool force) {
  PoolView v;
  std::vector<SlotScan> pend;
  if (int rc = open_copy(path, force, &v, &pend))
    return rc;
  const PoolHeader &h = v.header;
  printf("pool:        %s\n", path);
  printf("format:      version %u, header %u bytes\n", h.version,
         h.header_size);
  printf("size:        %" PRIu64 " bytes\n", h.pool_size);
  printf("base:        0x%" PRIx64 "\n", h.base);
  printf("uuid:        ");
  print_uuid(h.uuid);
  printf("\ncreator:     %s\n", h.creator);
  struct stat st;
  if (stat(path, &st) == 0)
    printf("file mode:   %04o, owner uid %u\n", unsigned(st.st_mode & 07777),
           unsigned(st.st_uid));
  persist::Domain domain;
  if (!persist::choose_domain(path, file_is_dax(path), &domain)) {
    unmap_pool(v.base, v.header.pool_size);
    return 1;
  }
  printf("domain:      %s (%s)\n", persist::domain_name(domain),
         domain_meaning(domain));
  printf("slots:       %u x %" PRIu64 " bytes at offset %" PRIu64 " (%" PRIu64
         " log entries each)\n",
         h.slot_count, h.slot_size, h.slots_offset, v.capacity());
  printf("heap:        %" PRIu64 " bytes at offset %" PRIu64 "\n",
         v.heap_size(), h.heap_offset);
  const RootDescriptor *r = v.root();
  if (r->offset)
    printf("root:        offset %" PRIu64 ", %" PRIu64 " bytes\n", r->offset,
           r->size);
  else
    printf("root:        none\n");
  printf("state:       %s\n", close_state(v, pend.size()).c_str());
  printf("pending:     %zu record(s)\n", pend.size());
  uint64_t floor = replay_floor(v);
  if (floor)
    printf("replay floor: %" PRIu64 " (committed records at or below it are "
           "ignored)\n",
           floor);
  for (const SlotScan &s : pend) {
    printf("  slot %u", s.index);
    if (s.part)
      printf(" record %u", s.part);
    printf(": %s, generation %" PRIu64, state_name(s.state), s.gen);
    if (is_redo_state(s.state))
      printf(", commit order %" PRIu64 ", %" PRIu64 " entries", s.order,
             s.declared);
    else if (s.state == kRedoStream)
      printf(", epoch %" PRIu64 ", %zu records above the floor", s.epoch,
             stream_records(v, s.index, floor).size());
    else
      printf(", %" PRIu64 " valid entries", s.entries);
    if (s.damaged)
      printf(" -- DAMAGED: %s", s.problem);
    if (s.torn)
      printf(" -- %s", s.problem);
    if (s.superseded)
      printf(" -- at or below the replay floor: ignored");
    if (s.part == 0 && v.slot(s.index)->log_ext != 0)
      printf(" (in a log extension at offset %" PRIu64 ")",
             v.slot(s.index)->log_ext);
    printf("\n");
  }
  int status = 0;
  std::string problem;
  if (recover(v, path, nullptr) != 0) {
    status = 1;
  } else if (r->heap_formatted != kHeapFormatted) {
    problem = unformatted_problem(v);
    if (problem.empty())
      printf("heap stats:  not formatted yet (formatted at the first open)\n");
    else
      printf("heap stats:  damaged: %s\n", problem.c_str());
    status = problem.empty() ? 0 : 1;
  } else {
    PersistentHeap heap;
    if (!heap.attach(v.heap(), v.heap_size(), &problem)) {
      printf("heap stats:  damaged: %s\n", problem.c_str());
      status = 1;
    } else {
      HeapStats st = heap.stats();
      printf("heap stats:  %" PRIu64 " blocks, %" PRIu64
             " bytes allocated, %" PRIu64 " bytes free of %" PRIu64
             "; chunks %" PRIu64 " (%" PRIu64 " free, %" PRIu64
             " small, %" PRIu64 " large)\n",
             st.blocks_allocated, st.bytes_allocated, st.bytes_free,
             st.bytes_total, st.chunks_total, st.chunks_free, st.chunks_small,
             st.chunks_large);
      problem = root_problem(v, heap);
      if (!problem.empty()) {
        printf("root:        damaged: %s\n", problem.c_str());
        status = 1;
      }
    }
  }
  unmap_pool(v.base, v.header.pool_size);
  return status;
}

int cmd_check(const char *path, bool force) {
  PoolView v;
  std::vector<SlotScan> pend;
  if (int rc = open_copy(path, force, &v, &pend))
    return rc;
  int status = 0;
  size_t recoverable = 0;
  for (const SlotScan &s : pend) {
    if (s.damaged) {
      fprintf(stderr, "ptm-pool: %s: %s\n", path, s.problem);
      status = 1;
    } else {
      ++recoverable;
    }
  }
  // As the next open will see it: recovered (in the private copy), then
  // what the library requires of the heap and the root descriptor.
  if (status == 0) {
    recover(v, path, nullptr);
    std::string problem;
    if (v.root()->heap_formatted != kHeapFormatted) {
      problem = unformatted_problem(v);
    } else {
      PersistentHeap heap;
      if (!heap.attach(v.heap(), v.heap_size(), &problem))
        problem = "heap damaged: " + problem;
      else
        problem = root_problem(v, heap);
    }
    if (!problem.empty()) {
      fprintf(stderr, "ptm-pool: %s: %s\n", path, problem.c_str());
      status = 1;
    }
  }
  if (status == 0)
    printf("%s: ok, %s\n", path, close_state(v, recoverable).c_str());
  unmap_pool(v.base, v.header.pool_size);
  return status;
}

// Creates the pool PATH (which must not exist) with OPT and formats its heap;
// 0 or 1 (messages printed; PATH removed again if the heap could not be
// formatted).
int create_and_format(const char *path, uint64_t size, const CreateOptions &opt,
                      PoolHeader *h) {
  int fd; // its owner lock, until it is formatted
  if (create_pool_file(path, size, opt, h, &fd) != 0)
    return 1;
  char *base;
  int rc = map_pool(path, *h, /*writable=*/true, &base);
  if (rc == 0) {
    PoolView v;
    v.base = base;
    v.header = *h;
    rc = format_heap_if_needed(v, path);
    unmap_pool(base, h->pool_size);
  }
  if (rc != 0)
    unlink(path);
  close(fd);
  return rc != 0 ? 1 : 0;
}

// --force: the new pool is built as PATH.new-PID beside PATH and renamed
// over it once complete, so a failure leaves PATH as it was. Only a regular
// file (or a symbolic link, which is replaced, not followed) is replaced.
int replace_pool(const char *path, uint64_t size, const CreateOptions &opt,
                 PoolHeader *h) {
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
    fprintf(stderr,
            "ptm-pool: %s: not a regular file: --force replaces only a file\n",
            path);
    return 1;
  }
  // Not a pool a process has open (held until the new one is in place).
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd >= 0 && lock_pool_file(fd, path, /*exclusive=*/true) != 0) {
    close(fd);
    fprintf(stderr, "ptm-pool: %s: not replaced while in use\n", path);
    return kInUse;
  }
  std::string fresh = std::string(path) + ".new-" + std::to_string(getpid());
  if (int rc = create_and_format(fresh.c_str(), size, opt, h))
    return rc;
  if (rename(fresh.c_str(), path) != 0) {
    fprintf(stderr, "ptm-pool: %s: cannot replace it: %s\n", path,
            strerror(errno));
    unlink(fresh.c_str());
    return 1;
  }
  return 0;
}

int cmd_create(int argc, char **argv) {
  if (argc < 4)
    return usage();
  const char *path = argv[2];
  uint64_t size;
  if (!parse_size(argv[3], &size) || size == 0) {
    fprintf(stderr, "ptm-pool: bad size '%s'\n", argv[3]);
    return usage();
  }
  CreateOptions opt;
  opt.creator = "ptm-pool";
  bool force = false;
  for (int i = 4; i < argc; ++i) {
    uint64_t value;
    if (!strcmp(argv[i], "--force")) {
      force = true;
      continue;
    }
    if (!strcmp(argv[i], "--sparse")) {
      opt.sparse = true;
      continue;
    }
    if (i + 1 >= argc)
      return usage();
    if (!strcmp(argv[i], "--slots")) {
      if (!parse_size(argv[++i], &value) || value == 0 ||
          value > kMaxSlotCount) {
        fprintf(stderr, "ptm-pool: --slots takes 1 to %u\n", kMaxSlotCount);
        return usage();
      }
      opt.slot_count = uint32_t(value);
    } else if (!strcmp(argv[i], "--slot-size")) {
      if (!parse_size(argv[++i], &value) || value == 0)
        return usage();
      opt.slot_size = value;
    } else if (!strcmp(argv[i], "--base")) {
      char *end;
      value = strtoull(argv[++i], &end, 0);
      if (*end || value == 0)
        return usage();
      opt.base = value;
    } else if (!strcmp(argv[i], "--mode")) {
      if (!parse_mode(argv[++i], &opt.mode)) {
        fprintf(stderr,
                "ptm-pool: bad mode '%s' (octal, at most 777, with the "
                "owner's read and write bits: e.g. 600, 640)\n",
                argv[i]);
        return usage();
      }
    } else {
      return usage();
    }
  }
  struct stat st;
  bool exists = lstat(path, &st) == 0;
  if (exists && !force) {
    fprintf(stderr,
            "ptm-pool: %s: the file exists (ptm-pool create --force replaces "
            "it)\n",
            path);
    return 1;
  }
  PoolHeader h;
  int rc = exists ? replace_pool(path, size, opt, &h)
                  : create_and_format(path, size, opt, &h);
  if (rc != 0)
    return rc;
  printf("%s: created, %" PRIu64 " bytes at 0x%" PRIx64 ", %u slots of %" PRIu64
         " bytes\n",
         path, h.pool_size, h.base, h.slot_count, h.slot_size);
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage();
  std::string cmd = argv[1];
  bool force = argc == 4 && !strcmp(argv[3], "--force");
  if (cmd == "info" && (argc == 3 || force))
    return cmd_info(argv[2], force);
  if (cmd == "check" && (argc == 3 || force))
    return cmd_check(argv[2], force);
  if (cmd == "create")
    return cmd_create(argc, argv);
  return usage();
}
