/* The Romulus peer (romulus_policy.h) runs the protocol it stands for:
 * 1. a read-only transaction issues no clwb and no sfence;
 * 2. a transaction that writes L distinct lines of the pool issues 2L + 3
 *    clwb and 4 sfence, and then those lines of the back copy equal main;
 * 3. a transaction that writes only outside the pool issues none;
 * 4. an attempt that wrote and restarted leaves main as it was (its lines
 *    flushed back, 3 clwb + 2 sfence beyond the MUTATING step), and the
 *    back copy is untouched by it;
 * 5. two threads transfer between pool accounts (writers) and audit the
 *    total (readers) a fixed number of times: every audit sees the total,
 *    and the back copy equals main for every account at the end.
 * usage: romulus_check [OPS_PER_THREAD] */
#include <pthread.h>
#include <ptm.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const void *ptm_romulus_back(const void *addr);

static int failures;
#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "romulus_check:%d: FAILED: ", __LINE__);                 \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      failures++;                                                              \
    }                                                                          \
  } while (0)

#define LINE_WORDS 8 /* longs per 64-byte line */
#define NLINES 32
#define NACC 64
#define TOTAL (NACC * 1000L)

struct root {
  long words[NLINES * LINE_WORDS];  /* the root is 64-byte aligned */
  long accounts[NACC * LINE_WORDS]; /* one account per line */
};

static struct root *r;
static long outside[NLINES * LINE_WORDS]; /* DRAM, not the pool */

static ptm_stats_t now(void) {
  ptm_stats_t s;
  ptm_stats(&s);
  return s;
}

/* The back copy of [p, p + n) equals main. */
static int back_matches(const void *p, size_t n) {
  const void *b = ptm_romulus_back(p);
  return b && memcmp(b, p, n) == 0;
}

static void write_lines(int lines, long value) {
  PTM_BEGIN();
  for (int i = 0; i < lines; i++) {
    r->words[i * LINE_WORDS] = value;
    r->words[i * LINE_WORDS + 3] = value + 1; /* same line again */
  }
  PTM_END();
}

static long read_lines(int lines) {
  long sum = 0;
  PTM_BEGIN();
  for (int i = 0; i < lines; i++)
    sum += r->words[i * LINE_WORDS];
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
    r->words[5 * LINE_WORDS] = -5; /* two lines, then a restart */
    r->words[6 * LINE_WORDS] = -6;
    ptm_restart();
  }
  r->words[7 * LINE_WORDS] = 77;
  PTM_END();
}

static unsigned next_random(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return *s >> 8;
}

struct worker {
  int id;
  long ops, bad_audits;
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
        sum += r->accounts[a * LINE_WORDS];
      PTM_END();
      if (sum != TOTAL)
        w->bad_audits++;
      continue;
    }
    int from = (int)(x / 4 % NACC), to = (int)(next_random(&seed) % NACC);
    long amount = (long)(next_random(&seed) % 100);
    PTM_BEGIN();
    if (r->accounts[from * LINE_WORDS] >= amount) {
      r->accounts[from * LINE_WORDS] -= amount;
      r->accounts[to * LINE_WORDS] += amount;
    }
    PTM_END();
  }
  return NULL;
}

int main(int argc, char **argv) {
  long ops = argc > 1 ? atol(argv[1]) : 20000;
  if (ops <= 0) {
    fprintf(stderr, "usage: romulus_check [OPS_PER_THREAD > 0]\n");
    return 2;
  }
  r = ptm_root(sizeof *r);
  CHECK(r != NULL, "no root object");
  if (!r)
    return 1;
  /* (the counts are the same whichever instruction flushes) */
  printf("flush instruction: %s\n", ptm_flush_instruction());

  /* 2 first: the back copy exists once a transaction has written. */
  static const int sizes[] = {1, 3, 16, NLINES};
  for (unsigned k = 0; k < sizeof sizes / sizeof *sizes; k++) {
    int lines = sizes[k];
    ptm_stats_t a = now();
    write_lines(lines, 100 + lines);
    ptm_stats_t b = now();
    CHECK(b.clwb - a.clwb == (uint64_t)(2 * lines + 3),
          "%d lines written: %llu clwb, expected %d", lines,
          (unsigned long long)(b.clwb - a.clwb), 2 * lines + 3);
    CHECK(b.sfence - a.sfence == 4, "%d lines written: %llu sfence, expected 4",
          lines, (unsigned long long)(b.sfence - a.sfence));
    CHECK(back_matches(r->words, (size_t)lines * 64),
          "%d lines written: the back copy differs from main", lines);
  }

  /* 1. */
  ptm_stats_t a = now();
  long sum = read_lines(NLINES);
  ptm_stats_t b = now();
  CHECK(sum == (long)NLINES * (100 + NLINES), "read %ld", sum);
  CHECK(b.clwb == a.clwb && b.sfence == a.sfence,
        "read-only: %llu clwb, %llu sfence, expected none",
        (unsigned long long)(b.clwb - a.clwb),
        (unsigned long long)(b.sfence - a.sfence));

  /* 3. */
  a = now();
  PTM_BEGIN();
  for (int i = 0; i < NLINES; i++)
    outside[i * LINE_WORDS] = i;
  PTM_END();
  b = now();
  CHECK(outside[(NLINES - 1) * LINE_WORDS] == NLINES - 1, "outside write lost");
  CHECK(b.clwb == a.clwb && b.sfence == a.sfence,
        "writes outside the pool: %llu clwb, %llu sfence, expected none",
        (unsigned long long)(b.clwb - a.clwb),
        (unsigned long long)(b.sfence - a.sfence));

  /* 4. MUTATING (1 clwb, 1 sfence) and the rollback (2 lines and the state,
   * 2 sfence) for the first attempt; 2 * 1 + 3 clwb and 4 sfence for the
   * second. */
  long line5[LINE_WORDS];
  memcpy(line5, &r->words[5 * LINE_WORDS], sizeof line5);
  a = now();
  restart_once();
  b = now();
  CHECK(attempts == 2, "%d attempts", attempts);
  CHECK(b.aborts - a.aborts == 1, "%llu aborts",
        (unsigned long long)(b.aborts - a.aborts));
  CHECK(memcmp(line5, &r->words[5 * LINE_WORDS], sizeof line5) == 0 &&
            r->words[6 * LINE_WORDS] == 100 + NLINES,
        "the restarted attempt's writes stayed");
  CHECK(r->words[7 * LINE_WORDS] == 77, "the retry's write is missing");
  CHECK(b.clwb - a.clwb == 1 + 3 + 5 && b.sfence - a.sfence == 1 + 2 + 4,
        "restart: %llu clwb, %llu sfence, expected 9 and 7",
        (unsigned long long)(b.clwb - a.clwb),
        (unsigned long long)(b.sfence - a.sfence));
  CHECK(back_matches(r->words, sizeof r->words),
        "after the restart: the back copy differs from main");

  /* 5. */
  PTM_BEGIN();
  for (int i = 0; i < NACC; i++)
    r->accounts[i * LINE_WORDS] = TOTAL / NACC;
  PTM_END();
  pthread_t t[2];
  struct worker w[2];
  for (int i = 0; i < 2; i++) {
    w[i] = (struct worker){.id = i, .ops = ops};
    pthread_create(&t[i], NULL, run, &w[i]);
  }
  long bad = 0;
  for (int i = 0; i < 2; i++) {
    pthread_join(t[i], NULL);
    bad += w[i].bad_audits;
  }
  CHECK(bad == 0, "%ld audits saw a total other than %ld", bad, TOTAL);
  CHECK(back_matches(r->accounts, sizeof r->accounts),
        "after the threads: the back copy differs from main");

  ptm_stats_t s = now();
  if (failures) {
    fprintf(stderr, "romulus_check: FAILED (%d checks)\n", failures);
    return 1;
  }
  printf("romulus_check: OK [lib %s, commits %llu, aborts %llu]\n",
         ptm_algorithm(), (unsigned long long)s.commits,
         (unsigned long long)s.aborts);
  return 0;
}
