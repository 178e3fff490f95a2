/* Allocation rollback: malloc/calloc/realloc/free/aligned_alloc/
 * posix_memalign inside transactions under injected aborts. An abort frees
 * what the attempt allocated, a free takes effect at commit, and the data
 * structures built are correct. */
#include "e2e.h"

#include <stdint.h>
#include <string.h>

#define N 64

struct node {
  long value;
  struct node *next;
};

static struct node *head;
static long list_len;

static struct node *spare; /* kept from one transaction to the next */
static char *buf;          /* grown with realloc */
static size_t buf_len;
static long *zeroed; /* calloc */
static void *aligned[4];

/* Same-unit helper allocating inside the transaction (cloned). */
static struct node *make_node(long v, struct node *next) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    abort();
  n->value = v;
  n->next = next;
  return n;
}

static int list_ok(long expect_len, long first) {
  long k = 0;
  for (struct node *n = head; n; n = n->next, k++)
    if (n->value != first - k)
      return 0;
  return k == expect_len;
}

#ifdef PTM_E2E_TESTRT
#define LIVE() ((long)ptm_test_counts()->live_tx_allocs)
#define CHECK_LIVE(expect)                                                     \
  CHECK(LIVE() == (long)(expect),                                              \
        "live transactional blocks %ld, expected %ld", LIVE(), (long)(expect))
#else
#define CHECK_LIVE(expect) ((void)0)
#endif

int main(void) {
  E2E_RESET();

  /* Phase 1: a linked list of N nodes, one push per transaction. */
  for (long i = 0; i < N; i++) {
    PTM_BEGIN();
    head = make_node(i, head);
    list_len++;
    PTM_END();
  }
  CHECK_EQ(list_len, N);
  CHECK(list_ok(N, N - 1), "list of %d nodes is wrong", N);
  CHECK_LIVE(N);
#ifdef PTM_E2E_TESTRT
  {
    const struct ptm_test_counts *c = ptm_test_counts();
    CHECK_EQ(c->tx_allocs - c->rolled_back_allocs, N);
    if (e2e_sweep() > 0)
      CHECK(c->rolled_back_allocs > 0, "no allocation was rolled back");
  }
#endif
  E2E_CHECK_PHASE("push", N);

  /* Phase 2: pop half the list, freeing inside the transaction. The popped
   * node is read after the free in the same transaction: the free must only
   * happen at commit. */
  long popped_sum = 0, reused = 0;
  for (int i = 0; i < N / 2; i++) {
    PTM_BEGIN();
    struct node *n = head;
    head = n->next;
    popped_sum += n->value;
    free(n);
    /* Were the free immediate, the allocator would hand the block out again
     * right away; deferred to commit, it cannot. */
    struct node *m = malloc(sizeof *m);
    reused += m == n;
    free(spare);
    spare = m;
    list_len--;
    PTM_END();
  }
  CHECK_EQ(reused, 0);
  long x_popped = 0;
  for (long v = N - 1; v >= N / 2; v--)
    x_popped += v;
  CHECK_EQ(popped_sum, x_popped);
  CHECK_EQ(list_len, N / 2);
  CHECK(list_ok(N / 2, N / 2 - 1), "list after pops is wrong");
#ifdef PTM_E2E_TESTRT
  {
    const struct ptm_test_counts *c = ptm_test_counts();
    /* the nodes, and every spare block but the last */
    CHECK_EQ(c->applied_frees, N / 2 + N / 2 - 1);
    CHECK_EQ(c->live_tx_allocs, 1); /* the last spare */
  }
#endif
  E2E_CHECK_PHASE("pop", N / 2);

  /* Phase 3: realloc growth and calloc. */
  for (int i = 0; i < 20; i++) {
    PTM_BEGIN();
    char *nb = realloc(buf, buf_len + 8);
    for (int k = 0; k < 8; k++)
      nb[buf_len + k] = (char)('a' + (i + k) % 26);
    buf = nb;
    buf_len += 8;
    long *z = calloc(16, sizeof(long));
    long nonzero = 0;
    for (int k = 0; k < 16; k++)
      nonzero += z[k] != 0;
    z[i % 16] = nonzero + i;
    free(zeroed);
    zeroed = z;
    PTM_END();
  }
  CHECK_EQ(buf_len, 160);
  for (int i = 0; i < 20; i++)
    for (int k = 0; k < 8; k++)
      CHECK(buf[i * 8 + k] == (char)('a' + (i + k) % 26), "buf[%d]", i * 8 + k);
  for (int k = 0; k < 16; k++)
    CHECK_EQ(zeroed[k], k == 19 % 16 ? 19 : 0);
  /* Live: the last buf and the last zeroed block. */
  CHECK_LIVE(2);
  E2E_CHECK_PHASE("realloc", 20);

  /* Phase 4: aligned_alloc and posix_memalign. */
  for (int i = 0; i < 4; i++) {
    PTM_BEGIN();
    void *p = aligned_alloc(64, 128);
    void *q = 0;
    int rc = posix_memalign(&q, 256, 64);
    if (rc == 0) {
      memset(p, i, 128);
      memset(q, i + 1, 64);
      free(q);
    }
    aligned[i] = rc == 0 ? p : 0;
    PTM_END();
  }
  for (int i = 0; i < 4; i++) {
    CHECK(aligned[i] && ((uintptr_t)aligned[i] & 63) == 0, "aligned[%d] = %p",
          i, aligned[i]);
    if (aligned[i])
      CHECK(((unsigned char *)aligned[i])[127] == i, "aligned[%d] content", i);
  }
  CHECK_LIVE(4);
  E2E_CHECK_PHASE("aligned", 4);

  /* Phase 5: free everything transactionally. */
  PTM_BEGIN();
  while (head) {
    struct node *n = head;
    head = n->next;
    free(n);
  }
  for (int i = 0; i < 4; i++) {
    free(aligned[i]);
    aligned[i] = 0;
  }
  free(buf);
  buf = 0;
  free(zeroed);
  zeroed = 0;
  free(spare);
  spare = 0;
  PTM_END();
  CHECK(head == 0, "list not empty");
#ifdef PTM_E2E_TESTRT
  CHECK_EQ(ptm_test_counts()->applied_frees, N / 2 + 4 + 2 + 1);
#endif
  E2E_CHECK_PHASE("free all", 1);

  return e2e_finish("alloc");
}
