/*
 * control.c - the power-cut harness's control program (power_cut.py).
 *
 *   power_cut_control sync|nosync FILE   append records until killed
 *   power_cut_control check FILE         count the records FILE holds
 *
 * Record i (from 1) is 512 bytes at offset (i - 1) * 512: a magic word, i,
 * and 62 words derived from i. After writing record i (and, in sync mode,
 * fdatasync of the file), the program prints "ack i" on stdout. `check`
 * prints "records N": the length of the run of whole records from record 1.
 *
 * A power cut loses no acknowledged record of the sync mode, and, in a run
 * far shorter than the kernel's writeback delay, the records of the nosync
 * mode: so the harness, which must see both, is known to cut power where
 * the program stands and not somewhere else.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { kWords = 64, kRecordBytes = kWords * 8 };
static const uint64_t kMagic = 0x50544d2d63757421ull; /* "PTM-cut!" */

static uint64_t word(uint64_t i, unsigned k) {
  return (i * 0x9e3779b97f4a7c15ull) ^ (k * 0xd1b54a32d192ed03ull + 1);
}

static void fill(uint64_t *r, uint64_t i) {
  r[0] = kMagic;
  r[1] = i;
  for (unsigned k = 2; k < kWords; ++k)
    r[k] = word(i, k);
}

static int append(const char *path, int sync) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    fprintf(stderr, "power_cut_control: %s: %s\n", path, strerror(errno));
    return 1;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  uint64_t r[kWords];
  for (uint64_t i = 1;; ++i) {
    fill(r, i);
    if (pwrite(fd, r, sizeof r, (off_t)((i - 1) * kRecordBytes)) !=
            (ssize_t)sizeof r ||
        (sync && fdatasync(fd) != 0)) {
      fprintf(stderr, "power_cut_control: %s: record %llu: %s\n", path,
              (unsigned long long)i, strerror(errno));
      return 1;
    }
    printf("ack %llu\n", (unsigned long long)i);
  }
}

static int check(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno != ENOENT) {
    fprintf(stderr, "power_cut_control: %s: %s\n", path, strerror(errno));
    return 1;
  }
  uint64_t n = 0, r[kWords], want[kWords];
  while (fd >= 0) {
    fill(want, n + 1);
    if (pread(fd, r, sizeof r, (off_t)(n * kRecordBytes)) !=
            (ssize_t)sizeof r ||
        memcmp(r, want, sizeof r) != 0)
      break;
    ++n;
  }
  if (fd >= 0)
    close(fd);
  printf("records %llu\n", (unsigned long long)n);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "sync"))
    return append(argv[2], 1);
  if (argc == 3 && !strcmp(argv[1], "nosync"))
    return append(argv[2], 0);
  if (argc == 3 && !strcmp(argv[1], "check"))
    return check(argv[2]);
  fprintf(stderr, "usage: %s sync|nosync|check FILE\n", argv[0]);
  return 2;
}
