//===- image.cpp - compose and write a crash image ------------------------===//

#include "runtime/crash_sim/image.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace ptm {
namespace crash_sim {

namespace {

uint64_t splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

bool all_zero(const char *p, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i)
    if (p[i])
      return false;
  return true;
}

} // namespace

void compose_image(char *persistent, const char *live, uint64_t size,
                   const std::unordered_map<uint64_t, const char *> &in_flight,
                   Mode mode, uint64_t seed, ImageStats *stats) {
  uint64_t rng = seed;
  for (uint64_t off = 0; off + kLine <= size; off += kLine) {
    char *p = persistent + off;
    const char *l = live + off;
    auto it = in_flight.find(off);
    const char *f = it == in_flight.end() ? nullptr : it->second;
    bool dirty = memcmp(p, l, kLine) != 0;
    if (!dirty && !f)
      continue;
    // The distinct versions other than the persistent one.
    const char *versions[2];
    int n = 0;
    if (f) {
      ++stats->in_flight;
      if (memcmp(f, p, kLine) != 0)
        versions[n++] = f;
    }
    if (dirty) {
      ++stats->dirty;
      if (!f || memcmp(l, f, kLine) != 0)
        versions[n++] = l;
    }
    const char *pick = nullptr;
    switch (mode) {
    case Mode::None:
      break;
    case Mode::All:
      pick = dirty ? l : nullptr; // the newest content: what SIGKILL keeps
      break;
    case Mode::Random: {
      uint64_t r = splitmix64(&rng) % uint64_t(n + 1);
      pick = r == 0 ? nullptr : versions[r - 1];
      break;
    }
    }
    if (!pick)
      continue;
    if (pick == l && dirty)
      ++stats->dirty_kept;
    if (f && (pick == f || memcmp(pick, f, kLine) == 0))
      ++stats->in_flight_kept;
    memcpy(p, pick, kLine);
  }
}

void compose_file_image(char *persistent, const char *live, uint64_t size,
                        Mode mode, uint64_t seed, ImageStats *stats) {
  uint64_t rng = seed;
  for (uint64_t off = 0; off < size; off += kPage) {
    uint64_t n = size - off < kPage ? size - off : kPage;
    if (memcmp(persistent + off, live + off, n) == 0)
      continue;
    ++stats->dirty;
    bool keep = mode == Mode::All ||
                (mode == Mode::Random && (splitmix64(&rng) >> 63) != 0);
    if (!keep)
      continue;
    ++stats->dirty_kept;
    memcpy(persistent + off, live + off, n);
  }
}

bool write_image(const char *path, const char *image, uint64_t size,
                 std::string *error) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    *error = std::string("cannot create the crash image '") + path +
             "': " + strerror(errno);
    return false;
  }
  bool ok = ftruncate(fd, off_t(size)) == 0;
  for (uint64_t off = 0; ok && off < size; off += kPage) {
    uint64_t n = size - off < kPage ? size - off : kPage;
    if (all_zero(image + off, n))
      continue;
    for (uint64_t done = 0; ok && done < n;) {
      ssize_t w = pwrite(fd, image + off + done, n - done, off_t(off + done));
      if (w <= 0)
        ok = false;
      else
        done += uint64_t(w);
    }
  }
  if (!ok)
    *error = std::string("cannot write the crash image '") + path +
             "': " + strerror(errno);
  close(fd);
  return ok;
}

} // namespace crash_sim
} // namespace ptm
