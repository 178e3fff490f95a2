//===- test_bad_pools.cpp - ptm_open refuses bad files, leaves them alone -===//
//
// Zero-length, random bytes, truncated (below the header and below the pool
// size), another format version, wrong size (asked for and on disk), bad
// checksum, address range taken, missing file without a size, a heap
// formatted with blocks aligned below the logging granularity, a damaged
// root descriptor, a damaged heap behind a log that recovery would replay
// (refused before anything is written): each gives
// its one-line `ptm: error: <path>: <what>`, a -errno, and the file's bytes
// are unchanged. Then a good pool opens, keeps its root across close/open.
//
//===----------------------------------------------------------------------===//

#include "pool_test.h"
#include "runtime/palloc/persistent_heap.h"
#include "runtime/pool/pool_file.h"
#include "runtime/pool/pool_format.h"
#include "runtime/pool/pool_view.h"

#include <cerrno>
#include <cstring>
#include <random>
#include <sys/mman.h>
#include <vector>

using namespace ptm::pool;

static void write_file(const std::string &path,
                       const std::vector<unsigned char> &bytes) {
  FILE *f = fopen(path.c_str(), "wb");
  if (!bytes.empty())
    fwrite(bytes.data(), 1, bytes.size(), f);
  fclose(f);
}

// ptm_open(path, size) must fail with RC and exactly MESSAGE, file unchanged.
static void expect_refused(const std::string &path, size_t size, int rc,
                           const std::string &message) {
  uint64_t before = file_hash(path);
  StderrCapture cap;
  cap.start();
  int got = ptm_open(path.c_str(), size);
  std::string err = cap.stop();
  std::string want = "ptm: error: " + path + ": " + message + "\n";
  if (err != want)
    fprintf(stderr, "expected: %sgot:      %s", want.c_str(), err.c_str());
  CHECK(err == want);
  CHECK_EQ(got, rc);
  CHECK_EQ(file_hash(path), before);
}

int main() {
  const size_t kSize = 32 << 20;
  std::string good = temp_pool_path("good");
  CHECK_EQ(ptm_open(good.c_str(), kSize), 0);
  auto *root = static_cast<uint64_t *>(ptm_root(64));
  CHECK(root != nullptr);
  run_tx([&] { __ptm_write_8(root, 4242); });
  ptm_close();
  std::vector<unsigned char> image = read_file(good);
  CHECK_EQ(image.size(), kSize);
  PoolHeader h;
  memcpy(&h, image.data(), sizeof h);

  std::string bad = temp_pool_path("bad");

  write_file(bad, {});
  expect_refused(bad, 0, -EINVAL, "zero-length file, not a pool");
  expect_refused(bad, kSize, -EINVAL, "zero-length file, not a pool");

  std::vector<unsigned char> noise(1 << 20);
  std::mt19937 rng(7);
  for (auto &b : noise)
    b = uint8_t(rng());
  write_file(bad, noise);
  expect_refused(bad, 0, -EINVAL, "not a ptm pool (bad magic)");

  write_file(bad,
             std::vector<unsigned char>(image.begin(), image.begin() + 1000));
  expect_refused(bad, 0, -EINVAL,
                 "truncated: the file has 1000 bytes, less than the "
                 "4096-byte pool header");
  write_file(bad, std::vector<unsigned char>(image.begin(),
                                             image.begin() + (4 << 20)));
  expect_refused(bad, 0, -EINVAL,
                 "truncated: the file has 4194304 bytes, the pool header "
                 "says 33554432");

  // Other format versions, their header checksums right: 3 (the old entry
  // checks), 4 (a heap without the cover bitmap) and a newer one, refused.
  // (Version 5, without log extensions, is read as it is: below.)
  for (uint32_t version : {3u, 4u, kVersion + 1}) {
    std::vector<unsigned char> v = image;
    PoolHeader x = h;
    x.version = version;
    x.checksum = header_checksum(x);
    memcpy(v.data(), &x, sizeof x);
    write_file(bad, v);
    char msg[128];
    snprintf(msg, sizeof msg,
             "incompatible version: the pool has format version %u, this "
             "library reads versions 5 to 6",
             version);
    expect_refused(bad, 0, -EINVAL, msg);
  }
  { // a version-5 pool (no log extensions) opens and keeps its data
    std::vector<unsigned char> v = image;
    PoolHeader x = h;
    x.version = 5;
    x.checksum = header_checksum(x);
    memcpy(v.data(), &x, sizeof x);
    write_file(bad, v);
    CHECK_EQ(ptm_open(bad.c_str(), 0), 0);
    auto *r5 = static_cast<uint64_t *>(ptm_root(64));
    CHECK(r5 != nullptr);
    CHECK_EQ(*r5, 4242u);
    ptm_close();
  }

  // A heap whose blocks are aligned to less than the logging granularity
  // (a pool made by a build with a smaller PTM_LOG_GRANULARITY).
  if (kLogGranularity > 16) {
    unlink(bad.c_str());
    PoolHeader fh;
    CHECK_EQ(create_pool_file(bad.c_str(), kSize, CreateOptions(), &fh), 0);
    PoolView v;
    CHECK_EQ(map_pool(bad.c_str(), fh, /*writable=*/true, &v.base), 0);
    v.header = fh;
    ptm::PersistentHeap::format(v.heap(), v.heap_size(), 16);
    v.root()->heap_formatted = kHeapFormatted;
    unmap_pool(v.base, fh.pool_size);
    char msg[256];
    snprintf(msg, sizeof msg,
             "the heap's blocks are aligned to 16 bytes, this library logs "
             "%llu-byte chunks (PTM_LOG_GRANULARITY) and needs blocks "
             "aligned to them; create the pool with a build of the same or "
             "a larger granularity",
             (unsigned long long)kLogGranularity);
    expect_refused(bad, 0, -EINVAL, msg);
  }

  write_file(bad, image);
  expect_refused(bad, 64 << 20, -EINVAL,
                 "wrong size: the pool has 33554432 bytes, 67108864 were "
                 "asked for");
  {
    std::vector<unsigned char> v = image;
    v.resize(kSize + 4096);
    write_file(bad, v);
    expect_refused(bad, 0, -EINVAL,
                   "wrong size: the file has 33558528 bytes, the pool header "
                   "says 33554432");
  }

  {
    std::vector<unsigned char> v = image;
    v[offsetof(PoolHeader, creator)] ^= 1;
    write_file(bad, v);
    expect_refused(bad, 0, -EINVAL,
                   "bad header checksum: the pool header is damaged");
  }

  // The root descriptor, checked after recovery: an offset that names no
  // heap block; a heap marked unformatted (or with a mark that is neither)
  // while the pool has a root object or slots that have run transactions.
  {
    RootDescriptor rd;
    memcpy(&rd, &image[kRootOffset], sizeof rd);
    auto refused_root = [&](RootDescriptor x, const std::string &message) {
      std::vector<unsigned char> v = image;
      memcpy(&v[kRootOffset], &x, sizeof x);
      write_file(bad, v);
      expect_refused(bad, 0, -EIO, message);
    };
    RootDescriptor x = rd;
    x.offset += 8;
    char msg[160];
    snprintf(msg, sizeof msg,
             "the root descriptor does not name a heap block (offset %llu, "
             "64 bytes)",
             (unsigned long long)x.offset);
    refused_root(x, msg);
    x = rd;
    x.heap_formatted = 0;
    refused_root(x, "the root descriptor is damaged: the heap is marked as "
                    "not formatted yet, but there is a root object");
    x.heap_formatted = 1;
    refused_root(x, "the root descriptor is damaged: its heap mark is 0x1, "
                    "neither formatted nor new");
    uint32_t used = 0; // the first slot a transaction claimed
    for (uint64_t claim = 0; used < h.slot_count; ++used) {
      memcpy(&claim,
             &image[h.slots_offset + used * h.slot_size +
                    offsetof(SlotHeader, claim_gen)],
             sizeof claim);
      if (claim)
        break;
    }
    CHECK(used < h.slot_count);
    snprintf(msg, sizeof msg,
             "the root descriptor is damaged: the heap is marked as not "
             "formatted yet, but thread slot %u has run transactions",
             used);
    refused_root(RootDescriptor(), msg);
  }

  // A refused pool is left as it was even where recovery would have
  // written: a committed redo log to replay, and a damaged heap header
  // (recovery and the checks run on a private copy first).
  {
    std::vector<unsigned char> v = image;
    uint64_t slot = h.slots_offset + 5 * h.slot_size, gen = 3;
    LogEntry e;
    e.addr = h.base + h.pool_size - 8; // a heap data word
    e.meta = 0xff | gen << 8;
    e.data = 0x1234;
    e.check = entry_check(e.addr, e.meta, e.data);
    memcpy(&v[slot + sizeof(SlotHeader)], &e, sizeof e);
    RecordHeader r = {kRedoCommitted | gen << 8, 1, 1, 0};
    memcpy(&v[slot], &r, sizeof r);
    v[h.heap_offset + 8 * 8] ^= 1; // the heap header's checksum
    write_file(bad, v);
    expect_refused(bad, 0, -EIO,
                   "the heap is damaged: heap header: checksum mismatch");
  }

  // The pool's address range is taken in this process.
  {
    void *p = mmap(reinterpret_cast<void *>(h.base + 8192), 4096, PROT_READ,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    CHECK(p == reinterpret_cast<void *>(h.base + 8192));
    char range[128];
    snprintf(range, sizeof range, "0x%llx-0x%llx", (unsigned long long)h.base,
             (unsigned long long)(h.base + kSize));
    expect_refused(good, 0, -EADDRINUSE,
                   std::string("address range ") + range +
                       " is unavailable (already mapped in this process); a "
                       "pool is always mapped at the address in its header");
    munmap(p, 4096);
  }

  unlink(bad.c_str());
  expect_refused(bad, 0, -ENOENT,
                 "no such pool file (pass a size to ptm_open to create one)");
  CHECK(access(bad.c_str(), F_OK) != 0);

  // The good pool still opens, with its root and contents.
  CHECK_EQ(ptm_open(good.c_str(), 0), 0);
  root = static_cast<uint64_t *>(ptm_root(0));
  CHECK(root != nullptr);
  if (root)
    CHECK_EQ(*root, 4242u);
  CHECK(ptm_root(128) == nullptr); // cannot grow
  ptm_close();
  CHECK_EQ(ptm_open(good.c_str(), kSize), 0);
  ptm_close();
  unlink(good.c_str());
  return check_result("bad_pools");
}
