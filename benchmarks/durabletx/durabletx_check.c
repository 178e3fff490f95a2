/* The Trinity and Quadra peers (trinity_tl2, trinity_fc, quadra_fc; see
 * benchmarks/durabletx/) run the protocols they stand for. Built once per
 * peer with FENCES (sfence per transaction: 2 for Trinity, 1 for Quadra)
 * and SEQ_CLWB (clwb beyond one per chunk: Trinity's sequence word, 1; 0
 * for Quadra). It checks that:
 * 1. a transaction that writes C distinct 24-byte chunks of the pool issues
 *    C + SEQ_CLWB clwb and FENCES sfence, and the persistent copy then
 *    holds what it wrote;
 * 2. a read-only transaction issues no clwb and no sfence;
 * 3. a transaction that writes only outside the pool issues none;
 * 4. an attempt that wrote and restarted leaves the replica as it was and
 *    makes nothing durable (the retry alone pays the formula);
 * 5. two threads transfer between pool accounts and audit the total a
 *    fixed number of times: every audit sees the total, no writing
 *    transaction issued more than the formula (a batch of the flat-
 *    combining forms issues it once for several; the runtime adds its
 *    own for each new thread's slot), and at the end the
 *    persistent copy equals the replica for every account.
 * usage: durabletx_check [OPS_PER_THREAD] */
#include <pthread.h>
#include <ptm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(FENCES) || !defined(SEQ_CLWB)
#error "build with -DFENCES=<sfence per transaction> -DSEQ_CLWB=<0 or 1>"
#endif

int ptm_durabletx_matches(const void *addr, size_t n);

static int failures;
#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "durabletx_check:%d: FAILED: ", __LINE__);               \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      failures++;                                                              \
    }                                                                          \
  } while (0)

/* Longs 48 bytes apart lie in distinct chunks (a chunk is 24 bytes from the
 * pool's base, which is 8-aligned, so an aligned long never straddles). */
#define STRIDE 6
#define NCHUNKS 32
#define NACC 64
#define ACC_STRIDE 8 /* one account per 64 bytes: 2 chunks per transfer */
#define TOTAL (NACC * 1000L)

struct root {
  long words[NCHUNKS * STRIDE];
  long accounts[NACC * ACC_STRIDE];
};

static struct root *r;
static long outside[NCHUNKS * STRIDE]; /* DRAM, not the pool */

static ptm_stats_t now(void) {
  ptm_stats_t s;
  ptm_stats(&s);
  return s;
}

static void write_chunks(int chunks, long value) {
  PTM_BEGIN();
  for (int i = 0; i < chunks; i++) {
    r->words[i * STRIDE] = value;
    r->words[i * STRIDE] = value + i; /* the same chunk again */
  }
  PTM_END();
}

static long read_chunks(int chunks) {
  long sum = 0;
  PTM_BEGIN();
  sum = 0;
  for (int i = 0; i < chunks; i++)
    sum += r->words[i * STRIDE];
  PTM_END();
  return sum;
}

static int attempts;
PTM_PURE __attribute__((noinline)) static int count_attempt(void) {
  return ++attempts;
}

static void restart_once(void) {
  attempts = 0;
  PTM_BEGIN();
  if (count_attempt() == 1) {
    r->words[5 * STRIDE] = -5; /* two chunks, then a restart */
    r->words[6 * STRIDE] = -6;
    ptm_restart();
  }
  r->words[7 * STRIDE] = 77;
  PTM_END();
}

static unsigned next_random(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

struct worker {
  int id;
  long ops, bad_audits, writers;
};

static void *run(void *arg) {
  struct worker *w = arg;
  unsigned seed = 0x9e3779b9u * (unsigned)(w->id + 1);
  for (long i = 0; i < w->ops; i++) {
    unsigned x = next_random(&seed);
    if (x % 4 == 0) {
      long sum = 0;
      PTM_BEGIN();
      sum = 0;
      for (int a = 0; a < NACC; a++)
        sum += r->accounts[a * ACC_STRIDE];
      PTM_END();
      if (sum != TOTAL)
        w->bad_audits++;
      continue;
    }
    int from = (int)(x / 4 % NACC), to = (int)(next_random(&seed) % NACC);
    long amount = (long)(next_random(&seed) % 100);
    int wrote = 0;
    PTM_BEGIN();
    wrote = 0;
    if (r->accounts[from * ACC_STRIDE] >= amount) {
      r->accounts[from * ACC_STRIDE] -= amount;
      r->accounts[to * ACC_STRIDE] += amount;
      wrote = 1;
    }
    PTM_END();
    w->writers += wrote;
  }
  return NULL;
}

int main(int argc, char **argv) {
  long ops = argc > 1 ? atol(argv[1]) : 20000;
  if (ops <= 0) {
    fprintf(stderr, "usage: durabletx_check [OPS_PER_THREAD > 0]\n");
    return 2;
  }
  r = ptm_root(sizeof *r);
  CHECK(r != NULL, "no root object");
  if (!r)
    return 1;
  printf("flush instruction: %s\n", ptm_flush_instruction());

  /* 1. */
  static const int sizes[] = {1, 3, 16, NCHUNKS};
  for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    int chunks = sizes[k];
    ptm_stats_t a = now();
    write_chunks(chunks, 100 * chunks);
    ptm_stats_t b = now();
    CHECK(b.clwb - a.clwb == (uint64_t)(chunks + SEQ_CLWB),
          "%d chunks written: %llu clwb, expected %d", chunks,
          (unsigned long long)(b.clwb - a.clwb), chunks + SEQ_CLWB);
    CHECK(b.sfence - a.sfence == FENCES,
          "%d chunks written: %llu sfence, expected %d", chunks,
          (unsigned long long)(b.sfence - a.sfence), FENCES);
    for (int i = 0; i < chunks; i++)
      CHECK(ptm_durabletx_matches(&r->words[i * STRIDE], sizeof(long)) == 1,
            "%d chunks written: chunk %d is not durable", chunks, i);
  }

  /* 2. */
  ptm_stats_t a = now();
  long sum = read_chunks(NCHUNKS);
  ptm_stats_t b = now();
  long expected = 0;
  for (int i = 0; i < NCHUNKS; i++)
    expected += 100L * NCHUNKS + i;
  CHECK(sum == expected, "read %ld, expected %ld", sum, expected);
  CHECK(b.clwb == a.clwb && b.sfence == a.sfence,
        "read-only: %llu clwb, %llu sfence, expected none",
        (unsigned long long)(b.clwb - a.clwb),
        (unsigned long long)(b.sfence - a.sfence));

  /* 3. */
  a = now();
  PTM_BEGIN();
  for (int i = 0; i < NCHUNKS; i++)
    outside[i * STRIDE] = i;
  PTM_END();
  b = now();
  CHECK(outside[(NCHUNKS - 1) * STRIDE] == NCHUNKS - 1, "outside write lost");
  CHECK(b.clwb == a.clwb && b.sfence == a.sfence,
        "writes outside the pool: %llu clwb, %llu sfence, expected none",
        (unsigned long long)(b.clwb - a.clwb),
        (unsigned long long)(b.sfence - a.sfence));

  /* 4. */
  long before5 = r->words[5 * STRIDE], before6 = r->words[6 * STRIDE];
  a = now();
  restart_once();
  b = now();
  CHECK(attempts == 2, "%d attempts", attempts);
  CHECK(b.aborts - a.aborts == 1, "%llu aborts",
        (unsigned long long)(b.aborts - a.aborts));
  CHECK(r->words[5 * STRIDE] == before5 && r->words[6 * STRIDE] == before6,
        "the restarted attempt's writes stayed");
  CHECK(r->words[7 * STRIDE] == 77, "the retry's write is missing");
  CHECK(b.clwb - a.clwb == 1 + SEQ_CLWB && b.sfence - a.sfence == FENCES,
        "restart: %llu clwb, %llu sfence, expected %d and %d",
        (unsigned long long)(b.clwb - a.clwb),
        (unsigned long long)(b.sfence - a.sfence), 1 + SEQ_CLWB, FENCES);
  CHECK(ptm_durabletx_matches(r->words, sizeof r->words) == 1,
        "after the restart: the persistent copy differs from the replica");

  /* 5. */
  PTM_BEGIN();
  for (int i = 0; i < NACC; i++)
    r->accounts[i * ACC_STRIDE] = TOTAL / NACC;
  PTM_END();
  a = now();
  pthread_t t[2];
  struct worker w[2];
  for (int i = 0; i < 2; i++) {
    w[i] = (struct worker){.id = i, .ops = ops};
    pthread_create(&t[i], NULL, run, &w[i]);
  }
  long bad = 0, writers = 0;
  for (int i = 0; i < 2; i++) {
    pthread_join(t[i], NULL);
    bad += w[i].bad_audits;
    writers += w[i].writers;
  }
  b = now();
  CHECK(bad == 0, "%ld audits saw a total other than %ld", bad, TOTAL);
  CHECK(writers > 0, "no transfer wrote");
  /* (beyond the protocol: each new thread claims a slot of the pool, which
   * the runtime persists with 1 clwb and 1 sfence) */
  CHECK(b.sfence - a.sfence <= (uint64_t)(FENCES * writers + 2),
        "threads: %llu sfence for %ld writing transactions, at most %d each",
        (unsigned long long)(b.sfence - a.sfence), writers, FENCES);
  CHECK(b.clwb - a.clwb <= (uint64_t)((2 + SEQ_CLWB) * writers + 2),
        "threads: %llu clwb for %ld transfers, at most %d each",
        (unsigned long long)(b.clwb - a.clwb), writers, 2 + SEQ_CLWB);
  CHECK(ptm_durabletx_matches(r->accounts, sizeof r->accounts) == 1,
        "after the threads: the persistent copy differs from the replica");

  ptm_stats_t s = now();
  if (failures) {
    fprintf(stderr, "durabletx_check: FAILED (%d checks)\n", failures);
    return 1;
  }
  printf("durabletx_check: OK [lib %s, commits %llu, aborts %llu, "
         "%.2f sfence per writing transaction under 2 threads]\n",
         ptm_algorithm(), (unsigned long long)s.commits,
         (unsigned long long)s.aborts,
         (double)(b.sfence - a.sfence - 2) / (double)writers);
  return 0;
}
