//===- ptm-pool.cpp - inspect, check and create pool files ----------------===//
//
//   ptm-pool info FILE      header, size, base, root, slots with pending
//                           logs, heap statistics
//   ptm-pool check FILE     header + pending logs + heap; exit 0 if sound,
//                           1 with a message on damage
//   ptm-pool create FILE SIZE [--slots N] [--slot-size SIZE] [--base ADDR]
//                   [--mode OCTAL] [--force]
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
#include <string>
#include <sys/stat.h>
#include <unistd.h>

extern "C" const char *ptm_algorithm(void) { return "ptm-pool"; }

using namespace ptm;
using namespace ptm::pool;

namespace {

int usage() {
  fprintf(stderr,
          "usage: ptm-pool info FILE\n"
          "       ptm-pool check FILE\n"
          "       ptm-pool create FILE SIZE [--slots N] [--slot-size SIZE] "
          "[--base ADDR]\n"
          "                       [--mode OCTAL] [--force]\n"
          "SIZE: bytes, or with a K, M, G or T suffix (64M, 1G)\n"
          "OCTAL: the new file's permissions (default 600: owner-only; at "
          "most 777,\n"
          "       with the owner's read and write bits; the umask applies)\n"
          "--force: replace an existing FILE\n");
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

// Maps PATH privately at its base; recovers the copy. Returns 0 or an exit
// status (messages printed).
int open_copy(const char *path, PoolView *view, std::vector<SlotScan> *pend) {
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

void print_uuid(const uint8_t *u) {
  for (int i = 0; i < 16; ++i)
    printf("%02x%s", u[i], (i == 3 || i == 5 || i == 7 || i == 9) ? "-" : "");
}

int cmd_info(const char *path) {
  PoolView v;
  std::vector<SlotScan> pend;
  if (int rc = open_copy(path, &v, &pend))
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

int cmd_check(const char *path) {
  PoolView v;
  std::vector<SlotScan> pend;
  if (int rc = open_copy(path, &v, &pend))
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
    printf("%s: ok (%zu record(s) with logs to recover at the next open)\n",
           path, recoverable);
  unmap_pool(v.base, v.header.pool_size);
  return status;
}

// Creates the pool PATH (which must not exist) with OPT and formats its heap;
// 0 or 1 (messages printed; PATH removed again if the heap could not be
// formatted).
int create_and_format(const char *path, uint64_t size, const CreateOptions &opt,
                      PoolHeader *h) {
  if (create_pool_file(path, size, opt, h) != 0)
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
  if (rc != 0) {
    unlink(path);
    return 1;
  }
  return 0;
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
      if (!parse_size(argv[++i], &value))
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
  if (cmd == "info" && argc == 3)
    return cmd_info(argv[2]);
  if (cmd == "check" && argc == 3)
    return cmd_check(argv[2]);
  if (cmd == "create")
    return cmd_create(argc, argv);
  return usage();
}
