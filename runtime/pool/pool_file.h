//===- pool_file.h - validate, create and map pool files --------*- C++ -*-===//
//
// Everything that touches a pool FILE (as opposed to its mapped contents):
//
//   read_pool_header   open read-only and validate; never writes
//   create_pool_file   create a new file (libpmem pmem_map_file, O_EXCL,
//                      owner-only unless asked otherwise) and write its
//                      header; refuses to touch an existing file
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
  uint64_t slot_size = kDefaultSlotSize;
  const char *creator = "";
  // Permission bits of the new file (the umask applies, as for open(2)).
  unsigned mode = kDefaultPoolMode;
};

// Validates PATH as a pool (EXPECTED_SIZE 0: any size) and fills *OUT.
// -ENOENT without a message when the file does not exist.
int read_pool_header(const char *path, uint64_t expected_size, PoolHeader *out,
                     bool quiet_enoent = true);

// Creates the pool file PATH of SIZE bytes (sparse) and writes its header.
int create_pool_file(const char *path, uint64_t size, const CreateOptions &opt,
                     PoolHeader *out);

// Maps PATH (already validated as H) at H.base: shared and writable, or
// private copy-on-write (tools: the file never changes). 0, or -EADDRINUSE if
// the range is taken.
int map_pool(const char *path, const PoolHeader &h, bool writable,
             char **base_out);

void unmap_pool(char *base, uint64_t size);

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
