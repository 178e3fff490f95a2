/* Loads the optimizer would merge or hoist are instrumented once: above -O0
 * the plugin lets LLVM clean the code up (SROA, EarlyCSE, LICM, GVN) before
 * it instruments it (plugin/PtmPlugin.cpp, -ptm-early-cleanup). A search
 * loop that reads a node's key count in every iteration reads it through
 * one barrier per attempt at -O2, through one per iteration at -O0; the
 * results are the same either way, also under injected aborts. */
#include "e2e.h"

#define NKEYS 32
#define NTX 80

struct node {
  int nkeys;
  long keys[NKEYS];
};

static struct node node;

/* The first position whose key is above KEY. */
__attribute__((noinline)) static int position(const struct node *n, long key) {
  int i;
  PTM_BEGIN();
  i = 0;
  while (i < n->nkeys && key >= n->keys[i])
    i++;
  PTM_END();
  return i;
}

int main(void) {
  node.nkeys = NKEYS;
  for (int i = 0; i < NKEYS; i++)
    node.keys[i] = 2 * i;
  E2E_RESET();

  long iterations = 0; /* of the search loop, summed over the transactions */
  for (int t = 0; t < NTX; t++) {
    long key = e2e_opaque(t - 8); /* below, inside and above the keys */
    int want = key < 0 ? 0 : key / 2 + 1 > NKEYS ? NKEYS : key / 2 + 1;
    CHECK_EQ(position(&node, key), want);
    iterations += want;
  }
#ifdef PTM_E2E_TESTRT
  const struct ptm_test_counts *c = ptm_test_counts();
  uint64_t count_reads = c->reads[PTM_TEST_SIZE_4];
  uint64_t key_reads = c->reads[PTM_TEST_SIZE_8];
  printf("hoist: %" PRIu64 " attempts, %" PRIu64 " key count reads, %" PRIu64
         " key reads (%ld iterations)\n",
         c->begins, count_reads, key_reads, iterations);
  /* Every committed attempt read each key it passed, and the one it stopped
   * at unless it ran off the end. */
  CHECK(key_reads >= (uint64_t)iterations, "key reads %" PRIu64, key_reads);
#ifdef __OPTIMIZE__
  CHECK(count_reads <= c->begins,
        "%" PRIu64 " key count reads in %" PRIu64 " attempts: not hoisted",
        count_reads, c->begins);
#else
  CHECK(count_reads >= (uint64_t)iterations + NTX,
        "%" PRIu64 " key count reads for %ld iterations", count_reads,
        iterations);
#endif
  E2E_CHECK_PHASE("search", NTX);
#else
  (void)iterations;
#endif
  return e2e_finish("hoist");
}
