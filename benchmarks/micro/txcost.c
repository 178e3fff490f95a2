/*
 * txcost: the fixed cost of a transaction (issue 52, "Begin and end"). Each
 * operation is one transaction of the kind -m selects, on the thread's own
 * cache line of the root (no conflicts between threads):
 *
 *   -m empty   PTM_BEGIN(); PTM_END();
 *   -m read    one load of the thread's pool word
 *   -m write   one store to it (a writing transaction: the smallest commit)
 *   -m call    no transaction: a call of a function that loads the word,
 *              the reference a transaction's overhead is measured against
 *
 * Validation: the words grew by the stores the threads counted.
 * scripts/instructions.py --bench txcost -- -m empty counts instructions
 * per operation; scripts/bench.py times them.
 *
 *   txcost [common options] [-m empty|read|write|call]
 */
#include "bench.h"

#include <stdio.h>
#include <string.h>

#define TXCOST_WORDS_PER_LINE 8

enum txcost_mode { MODE_EMPTY, MODE_READ, MODE_WRITE, MODE_CALL };

static enum txcost_mode mode = MODE_READ;
static uint64_t *cells; /* a line per thread */

static int parse_mode(int opt, const char *arg) {
  if (opt != 'm')
    return 0;
  if (!strcmp(arg, "empty"))
    mode = MODE_EMPTY;
  else if (!strcmp(arg, "read"))
    mode = MODE_READ;
  else if (!strcmp(arg, "write"))
    mode = MODE_WRITE;
  else if (!strcmp(arg, "call"))
    mode = MODE_CALL;
  else {
    fprintf(stderr, "txcost: -m '%s' is not empty, read, write or call\n", arg);
    return 0;
  }
  return 1;
}

__attribute__((noinline)) static uint64_t load_word(const uint64_t *p) {
  __asm__ volatile("" ::: "memory");
  return *p;
}

static void worker(bench_thread_t *t) {
  uint64_t *cell = &cells[t->id * TXCOST_WORDS_PER_LINE];
  uint64_t sum = 0;
  while (bench_continue(t)) {
    switch (mode) {
    case MODE_EMPTY:
      PTM_BEGIN();
      PTM_END();
      break;
    case MODE_READ:
      PTM_BEGIN();
      sum += *cell;
      PTM_END();
      break;
    case MODE_WRITE:
      PTM_BEGIN();
      *cell += 1;
      PTM_END();
      t->count[0]++;
      break;
    case MODE_CALL:
      sum += load_word(cell);
      break;
    }
    t->ops++;
  }
  t->count[1] = (long)sum; /* (keeps the loads) */
}

int main(int argc, char **argv) {
  bench_parse(argc, argv, "txcost", "m:", " [-m empty|read|write|call]",
              parse_mode);
  cells = bench_root("txcost", (size_t)bench.threads * TXCOST_WORDS_PER_LINE *
                                   sizeof *cells);
  uint64_t before = 0, total = 0;
  for (long i = 0; i < bench.threads; i++)
    before += cells[i * TXCOST_WORDS_PER_LINE];
  bench_run(worker);
  for (long i = 0; i < bench.threads; i++)
    total += cells[i * TXCOST_WORDS_PER_LINE];
  total -= before;
  int ok = total == (uint64_t)bench_sum(0);
  if (!ok)
    fprintf(stderr, "txcost: %llu stores in the pool, %ld counted\n",
            (unsigned long long)total, bench_sum(0));
  return bench_finish("txcost", ok);
}
