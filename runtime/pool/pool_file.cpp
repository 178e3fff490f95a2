//===- pool_file.cpp - validate, create and map pool files ----------------===//

#include "runtime/pool/pool_file.h"

#include "runtime/base/report.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/persist.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <libpmem.h>
#include <string>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace ptm {
namespace pool {
namespace {

int fail(const char *path, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

int fail(const char *path, int err, const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  error("%s: %s", path, what);
  return -err;
}

uint64_t round_up(uint64_t x, uint64_t to) { return (x + to - 1) / to * to; }

bool read_all(int fd, void *buf, size_t n) {
  auto *p = static_cast<char *>(buf);
  size_t done = 0;
  while (done < n) {
    ssize_t r = pread(fd, p + done, n - done, off_t(done));
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    done += size_t(r);
  }
  return true;
}

// Reserves [base, base + size) if it is free in this process.
bool reserve_range(uint64_t base, uint64_t size) {
  void *p = mmap(
      reinterpret_cast<void *>(base), size, PROT_NONE,
      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED)
    return false;
  if (p != reinterpret_cast<void *>(base)) { // kernel without NOREPLACE
    munmap(p, size);
    return false;
  }
  return true;
}

// Gives the new file FD its SIZE bytes: reserved (posix_fallocate) unless
// SPARSE. 0, or -errno with a message.
int reserve_space(int fd, const char *path, uint64_t size, bool sparse) {
  if (sparse) {
    if (ftruncate(fd, off_t(size)) == 0)
      return 0;
    int err = errno;
    return fail(path, err, "cannot create: cannot size the file: %s",
                strerror(err));
  }
  struct statvfs fs;
  int err = 0;
  if (fstatvfs(fd, &fs) == 0 && uint64_t(fs.f_bavail) * fs.f_frsize < size)
    err = ENOSPC; // (not tried: nothing to undo)
  else
    err = posix_fallocate(fd, 0, off_t(size));
  if (err == 0)
    return 0;
  if (err == ENOSPC || err == EFBIG || err == EDQUOT) {
    char avail[64] = "";
    if (fstatvfs(fd, &fs) == 0)
      snprintf(avail, sizeof avail, " (%llu bytes are free)",
               (unsigned long long)fs.f_bavail * fs.f_frsize);
    return fail(path, err,
                "cannot create: the file system has no room for a pool of "
                "%llu bytes%s: %s; ask for a smaller pool, or for a sparse "
                "one (PTM_POOL_SPARSE=1, ptm-pool create --sparse), whose "
                "program is killed by SIGBUS when the file system fills",
                (unsigned long long)size, avail, strerror(err));
  }
  return fail(path, err, "cannot create: cannot reserve %llu bytes: %s",
              (unsigned long long)size, strerror(err));
}

} // namespace

void reserve_existing(const char *path) {
  const char *sparse = getenv("PTM_POOL_SPARSE");
  if (sparse && !strcmp(sparse, "1"))
    return;
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return; // (map_pool says why)
  struct stat st;
  struct statvfs fs;
  if (fstat(fd, &st) == 0 &&
      uint64_t(st.st_blocks) * 512 < uint64_t(st.st_size)) {
    // Not tried when the file system cannot have room: a failing
    // posix_fallocate may keep what it allocated and leave it full.
    uint64_t missing = uint64_t(st.st_size) - uint64_t(st.st_blocks) * 512;
    int err = 0;
    if (fstatvfs(fd, &fs) == 0 && uint64_t(fs.f_bavail) * fs.f_frsize < missing)
      err = ENOSPC;
    else
      err = posix_fallocate(fd, 0, st.st_size);
    std::string site = std::string("sparse pool: ") + path;
    if (err != 0 && first_time_at(site.c_str(), nullptr))
      warning("%s: the pool file is sparse and its space cannot be reserved "
              "(%s): the program is killed by SIGBUS if the file system "
              "fills while the pool grows into it; free space on the file "
              "system",
              path, strerror(err));
  }
  close(fd);
}

long pool_lock_holder(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return 0;
  FILE *f = fopen("/proc/locks", "re");
  if (!f)
    return 0;
  // "1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234567 0 EOF" (device numbers
  // in hex); blocked waiters are listed as "1: -> FLOCK ...".
  char line[256];
  long holder = 0;
  while (!holder && fgets(line, sizeof line, f)) {
    char type[16], kind[16], mode[16];
    long pid;
    unsigned maj, min;
    unsigned long long ino;
    if (sscanf(line, "%*d: %15s %15s %15s %ld %x:%x:%llu", type, kind, mode,
               &pid, &maj, &min, &ino) == 7 &&
        !strcmp(type, "FLOCK") && maj == major(st.st_dev) &&
        min == minor(st.st_dev) && ino == st.st_ino)
      holder = pid;
  }
  fclose(f);
  return holder;
}

int lock_pool_file(int fd, const char *path, bool exclusive) {
  for (;;) {
    if (flock(fd, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0)
      return 0;
    if (errno == EINTR)
      continue;
    if (errno != EWOULDBLOCK) {
      int err = errno;
      return fail(path, err, "cannot lock the pool file: %s", strerror(err));
    }
    break;
  }
  long pid = pool_lock_holder(fd);
  char who[64] = "another process";
  if (pid > 0)
    snprintf(who, sizeof who, "process %ld", pid);
  return fail(path, EBUSY,
              "the pool is in use: %s has it open (a pool is open in one "
              "process at a time)",
              who);
}

uint64_t min_pool_size(uint32_t slot_count, uint64_t slot_size) {
  return round_up(kSlotsOffset + uint64_t(slot_count) * slot_size, kPageSize) +
         kMinHeapSize;
}

bool parse_size(const char *text, uint64_t *out) {
  if (!text || !*text)
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || end == text || text[0] == '-')
    return false;
  uint64_t mult = 1;
  switch (*end) {
  case '\0':
    break;
  case 'k':
  case 'K':
    mult = 1ull << 10;
    break;
  case 'm':
  case 'M':
    mult = 1ull << 20;
    break;
  case 'g':
  case 'G':
    mult = 1ull << 30;
    break;
  case 't':
  case 'T':
    mult = 1ull << 40;
    break;
  default:
    return false;
  }
  if (*end && end[1] != '\0' && !(end[1] == 'i' && end[2] == 'B') &&
      !((end[1] == 'B' || end[1] == 'b') && end[2] == '\0'))
    return false;
  if (v > UINT64_MAX / mult)
    return false;
  *out = v * mult;
  return true;
}

bool parse_mode(const char *text, unsigned *out) {
  if (!text || !*text || strlen(text) > 4)
    return false;
  unsigned v = 0;
  for (const char *p = text; *p; ++p) {
    if (*p < '0' || *p > '7')
      return false;
    v = v * 8 + unsigned(*p - '0');
  }
  if (v > 0777 || (v & 0600) != 0600)
    return false;
  *out = v;
  return true;
}

void warn_if_others_can_write(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0)
    return;
  bool others = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0 ||
                (st.st_uid != geteuid() && (st.st_mode & S_IWUSR) != 0);
  if (!others)
    return;
  // Once per file (path, device and inode) in the process.
  std::string site = std::string("pool writable by others: ") + path + " " +
                     std::to_string(st.st_dev) + ":" +
                     std::to_string(st.st_ino);
  if (!first_time_at(site.c_str(), nullptr))
    return;
  warning("%s: the pool file can be written by other users (mode %04o, "
          "owner uid %u): they can change this program's data; make it "
          "owner-only (chmod 600)",
          path, unsigned(st.st_mode & 07777), unsigned(st.st_uid));
}

int read_pool_header(const char *path, uint64_t expected_size, PoolHeader *out,
                     bool quiet_enoent) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOENT && quiet_enoent)
      return -ENOENT;
    return fail(path, err, "cannot open: %s", strerror(err));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int err = errno;
    close(fd);
    return fail(path, err, "cannot stat: %s", strerror(err));
  }
  int rc = 0;
  uint64_t file_size = uint64_t(st.st_size);
  PoolHeader h;
  memset(&h, 0, sizeof h);
  if (!S_ISREG(st.st_mode)) {
    rc = fail(path, EINVAL, "not a regular file, not a pool");
  } else if (file_size == 0) {
    rc = fail(path, EINVAL, "zero-length file, not a pool");
  } else if (!read_all(fd, &h, file_size < sizeof h ? file_size : sizeof h)) {
    rc = fail(path, EIO, "cannot read the pool header");
  } else if (file_size < sizeof kMagic ||
             memcmp(h.magic, kMagic, sizeof kMagic) != 0) {
    rc = fail(path, EINVAL, "not a ptm pool (bad magic)");
  } else if (file_size < kHeaderSize) {
    rc = fail(path, EINVAL,
              "truncated: the file has %llu bytes, less than the %llu-byte "
              "pool header",
              (unsigned long long)file_size, (unsigned long long)kHeaderSize);
  } else if (h.version < kOldestVersion || h.version > kVersion) {
    rc = fail(path, EINVAL,
              "incompatible version: the pool has format version %u, this "
              "library reads versions %u to %u",
              h.version, kOldestVersion, kVersion);
  } else if (h.checksum != header_checksum(h)) {
    rc = fail(path, EINVAL, "bad header checksum: the pool header is damaged");
  } else if (h.header_size != kHeaderSize || h.slots_offset != kSlotsOffset ||
             h.root_offset != kRootOffset || h.slot_count == 0 ||
             h.slot_count > kMaxSlotCount || h.slot_size < kMinSlotSize ||
             h.slot_size % kPageSize || h.heap_offset % kPageSize ||
             h.heap_offset <
                 h.slots_offset + uint64_t(h.slot_count) * h.slot_size ||
             h.pool_size < h.heap_offset + kMinHeapSize || h.base % kPageSize ||
             h.base == 0) {
    rc = fail(path, EINVAL, "damaged header: inconsistent layout fields");
  } else if (file_size < h.pool_size) {
    rc = fail(path, EINVAL,
              "truncated: the file has %llu bytes, the pool header says %llu",
              (unsigned long long)file_size, (unsigned long long)h.pool_size);
  } else if (file_size > h.pool_size) {
    rc = fail(path, EINVAL,
              "wrong size: the file has %llu bytes, the pool header says %llu",
              (unsigned long long)file_size, (unsigned long long)h.pool_size);
  } else if (expected_size != 0 && expected_size != h.pool_size) {
    rc = fail(path, EINVAL,
              "wrong size: the pool has %llu bytes, %llu were asked for",
              (unsigned long long)h.pool_size,
              (unsigned long long)expected_size);
  }
  close(fd);
  if (rc == 0)
    *out = h;
  return rc;
}

uint64_t default_slot_size(const char *path, bool dax, uint64_t size,
                           uint32_t slot_count) {
  persist::Domain domain;
  if (persist::choose_domain(path, dax, &domain, /*quiet=*/true) &&
      domain == persist::Domain::File &&
      uint64_t(slot_count) * kFileSlotSize * kFileSlotsShare <= size)
    return kFileSlotSize;
  return kDefaultSlotSize;
}

int create_pool_file(const char *path, uint64_t size, const CreateOptions &opt,
                     PoolHeader *out, int *locked_fd) {
  // (the default is at least kDefaultSlotSize: checked with it here, chosen
  // once the file is mapped)
  uint64_t slot_size = opt.slot_size ? opt.slot_size : kDefaultSlotSize;
  if (opt.slot_count == 0 || opt.slot_count > kMaxSlotCount ||
      slot_size < kMinSlotSize || slot_size % kPageSize)
    return fail(path, EINVAL,
                "cannot create: %u slots of %llu bytes (1 to 256 slots of a "
                "multiple of 4096 bytes, at least 4096)",
                opt.slot_count, (unsigned long long)slot_size);
  uint64_t min = min_pool_size(opt.slot_count, slot_size);
  if (size < min)
    return fail(path, EINVAL,
                "cannot create: %llu bytes is too small (%u thread slots of "
                "%llu bytes need a pool of at least %llu bytes)",
                (unsigned long long)size, opt.slot_count,
                (unsigned long long)slot_size, (unsigned long long)min);

  // The address: the requested one, or the first free range from the default.
  uint64_t span = round_up(size, kPageSize);
  uint64_t base = opt.base ? opt.base : kDefaultBase;
  if (base % kPageSize)
    return fail(path, EINVAL,
                "cannot create: base address 0x%llx is not "
                "page-aligned",
                (unsigned long long)base);
  bool found = false;
  for (int attempt = 0; attempt < 64 && !found; ++attempt) {
    if (reserve_range(base, span)) {
      munmap(reinterpret_cast<void *>(base), span);
      found = true;
    } else if (opt.base) {
      break;
    } else {
      base += round_up(span, 1ull << 36); // next 64 GiB-aligned range
    }
  }
  if (!found)
    return fail(path, EADDRINUSE,
                "cannot create: address range 0x%llx-0x%llx is unavailable in "
                "this process",
                (unsigned long long)base, (unsigned long long)(base + span));

  if (opt.mode > 0777 || (opt.mode & 0600) != 0600)
    return fail(path, EINVAL,
                "cannot create: mode %04o (at most 0777, with the owner's "
                "read and write bits)",
                opt.mode);
  struct stat st;
  if (lstat(path, &st) == 0)
    return fail(path, EEXIST, "cannot create: the file exists");

  // The file: created here (O_EXCL: never an existing one, nor through a
  // symbolic link), locked before anything is written (a process that opens
  // it meanwhile is refused as for a pool in use), its space reserved.
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(opt.mode));
  if (fd < 0) {
    int err = errno;
    return fail(path, err, "cannot create: %s", strerror(err));
  }
  int rc = lock_pool_file(fd, path, /*exclusive=*/true);
  if (rc == 0)
    rc = reserve_space(fd, path, size, opt.sparse);
  size_t mapped_len = 0;
  int is_pmem = 0;
  void *m = nullptr;
  if (rc == 0) {
    // libpmem maps it (and tells whether it is persistent memory).
    m = pmem_map_file(path, 0, 0, 0, &mapped_len, &is_pmem);
    if (!m || mapped_len != size) {
      int err = m ? EIO : (errno ? errno : EIO);
      rc = fail(path, err, "cannot create: cannot map the new file: %s",
                m ? "it changed size" : pmem_errormsg());
      if (m)
        pmem_unmap(m, mapped_len);
    }
  }
  if (rc != 0) {
    // Nothing left behind (the name is still ours: the lock was taken
    // before anything else could use the file).
    unlink(path);
    close(fd);
    return rc;
  }

  if (!opt.slot_size)
    slot_size = default_slot_size(path, is_pmem != 0, size, opt.slot_count);

  PoolHeader h;
  memset(&h, 0, sizeof h);
  h.version = kVersion;
  h.header_size = kHeaderSize;
  h.pool_size = size;
  h.base = base;
  h.slot_count = opt.slot_count;
  h.slot_size = slot_size;
  h.slots_offset = kSlotsOffset;
  h.heap_offset =
      round_up(kSlotsOffset + uint64_t(opt.slot_count) * slot_size, kPageSize);
  h.root_offset = kRootOffset;
  int ufd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (ufd < 0 || !read_all(ufd, h.uuid, sizeof h.uuid)) {
    uint64_t t = uint64_t(getpid()) ^ uint64_t(time(nullptr)) ^ base;
    uint64_t a = mix64(t), b = mix64(a);
    memcpy(h.uuid, &a, 8);
    memcpy(h.uuid + 8, &b, 8);
  }
  if (ufd >= 0)
    close(ufd);
  snprintf(h.creator, sizeof h.creator, "%s", opt.creator ? opt.creator : "");
  memcpy(h.magic, kMagic, sizeof kMagic);
  h.checksum = header_checksum(h);

  // Everything but the magic first: a crash before the magic is durable
  // leaves a file that is refused as "not a pool".
  auto *dst = static_cast<PoolHeader *>(m);
  PoolHeader staged = h;
  memset(staged.magic, 0, sizeof staged.magic);
  memcpy(dst, &staged, sizeof staged);
  persist::persist_range(dst, sizeof staged);
  if (!opt.sparse)
    rc = persist::write_log_area(fd, path, h.slots_offset,
                                 h.heap_offset - h.slots_offset);
  // (an ordinary file: synced, its name too, before the magic is written)
  if (rc == 0)
    rc = persist::sync_new_file(fd, path);
  if (rc == 0) {
    memcpy(dst->magic, kMagic, sizeof kMagic);
    persist::persist_range(dst->magic, sizeof kMagic);
    rc = persist::sync_new_file(fd, path);
  }
  pmem_unmap(m, mapped_len);
  if (rc != 0) {
    unlink(path);
    close(fd);
    return rc;
  }
  if (locked_fd)
    *locked_fd = fd;
  else
    close(fd);
  *out = h;
  return 0;
}

int map_pool(const char *path, const PoolHeader &h, bool writable,
             char **base_out, bool *dax) {
  int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    return fail(path, err, "cannot open for %s: %s",
                writable ? "reading and writing" : "reading", strerror(err));
  }
  void *want = reinterpret_cast<void *>(h.base);
  // Read-only users get a private copy-on-write mapping: they may recover
  // or inspect it in memory, the file stays as it is. It reserves no swap
  // (MAP_NORESERVE): they copy a few pages, and a pool larger than memory
  // can be looked at.
  // A writable mapping asks for MAP_SYNC first, which only a file on
  // persistent memory (a DAX file system) accepts.
  int flags = writable ? MAP_SHARED : MAP_PRIVATE | MAP_NORESERVE;
  void *p = MAP_FAILED;
  if (writable)
    p = mmap(want, h.pool_size, PROT_READ | PROT_WRITE,
             MAP_SHARED_VALIDATE | MAP_SYNC | MAP_FIXED_NOREPLACE, fd, 0);
  bool synced = p != MAP_FAILED;
  if (!synced)
    p = mmap(want, h.pool_size, PROT_READ | PROT_WRITE,
             flags | MAP_FIXED_NOREPLACE, fd, 0);
  if (dax)
    *dax = synced;
  int err = errno;
  close(fd);
  if (p == MAP_FAILED && err != EEXIST)
    return fail(path, err, "cannot map: %s", strerror(err));
  if (p == MAP_FAILED || p != want) {
    if (p != MAP_FAILED)
      munmap(p, h.pool_size);
    return fail(path, EADDRINUSE,
                "address range 0x%llx-0x%llx is unavailable (already mapped "
                "in this process); a pool is always mapped at the address in "
                "its header",
                (unsigned long long)h.base,
                (unsigned long long)(h.base + h.pool_size));
  }
  *base_out = static_cast<char *>(p);
  return 0;
}

void unmap_pool(char *base, uint64_t size) { munmap(base, size); }

bool file_is_dax(const char *path) {
  int fd = open(path, O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return false;
  void *p = mmap(nullptr, kPageSize, PROT_READ | PROT_WRITE,
                 MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
  close(fd);
  if (p == MAP_FAILED)
    return false;
  munmap(p, kPageSize);
  return true;
}

} // namespace pool
} // namespace ptm
