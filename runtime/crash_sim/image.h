//===- image.h - the pool file a simulated power failure leaves -*- C++ -*-===//
//
// A crash image is built line by line (64 bytes, written back whole, as the
// log format assumes) from three versions of each line of the pool:
//
//   persistent   what fences made durable (the simulator's shadow copy)
//   in flight    the content recorded by the newest clwb not yet fenced
//   live         the mapping now (a line that differs from both is dirty)
//
// Mode none keeps only the persistent version, all the live one (what a
// SIGKILL leaves), random picks one of the distinct versions of every line
// that has more than one, from a seeded generator, in address order (so an
// image is reproducible from the run, the crash point and the seed).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_CRASH_SIM_IMAGE_H
#define PTM_RUNTIME_CRASH_SIM_IMAGE_H

#include "runtime/crash_sim/config.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace ptm {
namespace crash_sim {

constexpr uint64_t kLine = 64;

struct ImageStats {
  uint64_t dirty = 0, dirty_kept = 0;         // lines live != persistent
  uint64_t in_flight = 0, in_flight_kept = 0; // lines with a pending clwb
};

// Builds the image in PERSISTENT (SIZE bytes, overwritten) from it, the
// in-flight versions (pool offset of a line -> its recorded content) and the
// live mapping at LIVE.
void compose_image(char *persistent, const char *live, uint64_t size,
                   const std::unordered_map<uint64_t, const char *> &in_flight,
                   Mode mode, uint64_t seed, ImageStats *stats);

// The file domain (persist/domain.h): a sync made the whole file
// PERSISTENT; since then the kernel may have written back any of the pages
// that differ from it (LIVE), each one whole. Mode none keeps no such page,
// all every one, random each with probability 1/2 (seeded, in address
// order). STATS counts pages in `dirty`.
constexpr uint64_t kPage = 4096;
void compose_file_image(char *persistent, const char *live, uint64_t size,
                        Mode mode, uint64_t seed, ImageStats *stats);

// Writes IMAGE (SIZE bytes) to PATH as a sparse file (all-zero pages are
// holes). False with *ERROR set on failure.
bool write_image(const char *path, const char *image, uint64_t size,
                 std::string *error);

} // namespace crash_sim
} // namespace ptm

#endif // PTM_RUNTIME_CRASH_SIM_IMAGE_H
