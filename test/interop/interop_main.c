/*
 * interop MODE [POOL] - programs as users write them, against every library
 * (test/interop/CMakeLists.txt builds one per library):
 *
 *   free POOL     pool blocks (ptm_malloc anywhere, malloc inside a
 *                 transaction of an ip_ library) released outside transactions
 *                 with the ordinary free, realloc and malloc_usable_size, and
 *                 C++ delete: the memory goes back to the pool
 *   one-source POOL  ptm_open, ptm_root and ptm_malloc with 2 threads of
 *                 transfers; the data survives ptm_close and a new process
 *                 with a persistent library; an STM library says once that
 *                 nothing is crash consistent and leaves the file alone
 *
 * Exit status 0 when every check passed.
 */
#include "interop.h"

#include <ptm.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s free|one-source POOL\n", argv[0]);
    return 2;
  }
  int failures;
  if (strcmp(argv[1], "free") == 0) {
    failures = interop_free(argv[2]);
    failures += interop_delete();
    ptm_close();
    unlink(argv[2]);
  } else if (strcmp(argv[1], "one-source") == 0)
    failures = interop_one_source(argv[2]);
  else {
    fprintf(stderr, "%s: unknown mode '%s'\n", argv[0], argv[1]);
    return 2;
  }
  if (failures) {
    fprintf(stderr, "interop %s: FAILED (%d checks) [lib %s]\n", argv[1],
            failures, ptm_algorithm());
    return 1;
  }
  printf("interop %s: OK [lib %s]\n", argv[1], ptm_algorithm());
  return 0;
}
