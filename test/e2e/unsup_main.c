/* Unsupported constructs at run time: a transaction calls ext_bump, defined in
 * a unit compiled without the plugin (no clone), or printf. With cgl the run
 * completes (the transaction becomes irrevocable) after a `ptm: warning:`
 * naming the call; with PTM_UNSUPPORTED=error the process exits non-zero with
 * a `ptm: error:`. The output itself is checked by run_check.cmake.
 * usage: unsup call|printf */
#include "e2e.h"

#include <string.h>

void ext_bump(long *p);

static long shared;
static long ext_count;

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  int n = 5;
  if (!strcmp(which, "call")) {
    for (int i = 0; i < n; i++) {
      PTM_BEGIN();
      shared++;
      ext_bump(&ext_count);
      shared++;
      PTM_END();
    }
    CHECK_EQ(ext_count, n);
  } else if (!strcmp(which, "printf")) {
    for (int i = 0; i < n; i++) {
      PTM_BEGIN();
      shared++;
      printf("inside transaction %d\n", i);
      shared++;
      PTM_END();
    }
  } else {
    fprintf(stderr, "usage: unsup call|printf\n");
    return 2;
  }
  CHECK_EQ(shared, 2 * n);
  return e2e_finish("unsup");
}
