//===- pool_file.h - validate, create and map pool files --------*- C++ -*-===//
//
// Everything that touches a pool FILE (as opposed to its mapped contents):
//
//   read_pool_header   open read-only and validate; never writes
//   create_pool_file   create a new file (O_EXCL, owner-only unless asked
//                      otherwise, its space reserved unless asked sparse)
//                      and write its header; refuses to touch an existing
//                      file, leaves none behind when it fails
//   lock_pool_file     the pool's owner lock: exclusive for a process that
//                      opens it, shared for tools that only read it
//   map_pool           map the whole file at the address in its header
//                      (MAP_FIXED_NOREPLACE: an occupied range is an error)
//
// Every failure prints one line `ptm: error: <path>: <what>` and returns
// -errno; the file is unchanged unless create_pool_file succeeded.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_POOL_FILE_H
#define PTM_RUNTIME_POOL_POOL_FILE_H

#include "runtime/pool/pool_format.h"

#include <cstddef>
#include <cstdint>

namespace ptm {
namespace pool {

// A pool holds a program's data: owner-only unless the creator asks.
constexpr unsigned kDefaultPoolMode = 0600;

struct CreateOptions {
  uint64_t base = 0; // 0: kDefaultBase, or the next free range above it
  uint32_t slot_count = kDefaultSlotCount;
  uint64_t slot_size = 0; // 0: default_slot_size()
  const char *creator = "";
  // Permission bits of the new file (the umask applies, as for open(2)).
  unsigned mode = kDefaultPoolMode;
  // A sparse file (blocks allocated as the pool is written: a full file
  // system is then a SIGBUS at some later store) instead of one whose space
  // is reserved now (posix_fallocate: ENOSPC here).
  bool sparse = false;
};

// Validates PATH as a pool (EXPECTED_SIZE 0: any size) and fills *OUT.
// -ENOENT without a message when the file does not exist.
int read_pool_header(const char *path, uint64_t expected_size, PoolHeader *out,
                     bool quiet_enoent = true);

// The default slot size in the file domain, when the slots take at most
// 1 / kFileSlotsShare of the pool (default_slot_size).
constexpr uint64_t kFileSlotSize = 1024 * 1024;
constexpr uint64_t kFileSlotsShare = 8;

// The slot size of a new pool of SIZE bytes and SLOT_COUNT slots at PATH
// that asks for none: kFileSlotSize in the file domain (persist/domain.h;
// DAX: the mapping accepted MAP_SYNC) when the slots take at most
// 1 / kFileSlotsShare of the pool, otherwise kDefaultSlotSize. The buffered
// persister's records go round a ring of slots there, and a larger ring
// writes each data page back less often (docs/pool.md "Persistence
// domains").
uint64_t default_slot_size(const char *path, bool dax, uint64_t size,
                           uint32_t slot_count);

// Creates the pool file PATH of SIZE bytes and writes its header. With
// LOCKED_FD, the file stays open there with its exclusive owner lock (taken
// before anything is written); otherwise it is closed.
int create_pool_file(const char *path, uint64_t size, const CreateOptions &opt,
                     PoolHeader *out, int *locked_fd = nullptr);

// The owner lock of an open file FD of the pool PATH (flock: released when
// the last descriptor of this open closes, and by the kernel when the
// process dies): exclusive for a process that opens the pool, shared for a
// reader. 0, or -EBUSY with a message naming PATH and, where /proc/locks
// tells it, the process that holds it.
int lock_pool_file(int fd, const char *path, bool exclusive);

// An existing pool file PATH that is sparse (its blocks do not cover its
// size) gets its space reserved, unless the environment asks for sparse
// pools (PTM_POOL_SPARSE=1); when the file system has no room, a warning
// (once per file and process) and the pool stays as it is.
void reserve_existing(const char *path);

// The pid of a process that holds a lock on the file FD (0: unknown).
long pool_lock_holder(int fd);

// Maps PATH (already validated as H) at H.base: shared and writable, or
// private copy-on-write (tools: the file never changes). 0, or -EADDRINUSE if
// the range is taken. DAX (writable only): set to whether the file is on
// persistent memory (the kernel accepted a MAP_SYNC mapping of it).
int map_pool(const char *path, const PoolHeader &h, bool writable,
             char **base_out, bool *dax = nullptr);

void unmap_pool(char *base, uint64_t size);

// Whether PATH is on persistent memory (a DAX file system: the kernel
// accepts a MAP_SYNC mapping of it); false when it cannot be opened for
// writing. The file is not changed.
bool file_is_dax(const char *path);

// The smallest pool with these slots.
uint64_t min_pool_size(uint32_t slot_count, uint64_t slot_size);

// Parses a pool file mode: octal digits (600, 0640), at most 0777 and with
// the owner's read and write bits (a pool its owner cannot reopen is of no
// use); false otherwise.
bool parse_mode(const char *text, unsigned *out);

// Prints `ptm: warning: <path>: ...` once per file and process if users
// other than this one can write the pool file PATH (group or other write
// bits, or another owner): they can change the program's data.
void warn_if_others_can_write(const char *path);

// Parses sizes like 4096, 64K, 64M, 1G (binary units); false if malformed.
bool parse_size(const char *text, uint64_t *out);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_POOL_FILE_H
