/* A program written against DESIGN.md's public API only (ptm.h), built the
 * way a user builds it (see user_build.sh): threads move units between
 * counters and append to a shared history inside transactions. */
#include <ptm.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define OPS 5000
#define SLOTS 32

static long slots[SLOTS];
static long moves;
static long history[THREADS * OPS];
static long history_len;

struct move {
  int from, to;
};

static void do_move(void *arg) {
  struct move *m = arg;
  slots[m->from]--;
  slots[m->to]++;
  moves++;
}

static void *worker(void *arg) {
  long id = (long)arg;
  unsigned seed = (unsigned)id * 2654435761u + 1;
  for (int i = 0; i < OPS; i++) {
    seed = seed * 1103515245u + 12345u;
    struct move m = {(int)(seed >> 8) % SLOTS, (int)(seed >> 16) % SLOTS};
    if (i % 2) {
      ptm_atomic(do_move, &m);
    } else {
      PTM_BEGIN();
      slots[m.from]--;
      slots[m.to]++;
      moves++;
      history[history_len++] = id;
      PTM_END();
    }
  }
  return NULL;
}

int main(void) {
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    if (pthread_create(&t[i], NULL, worker, (void *)i) != 0)
      return 1;
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  int bad = 0;
  long total = 0;
  for (int i = 0; i < SLOTS; i++)
    total += slots[i];
  if (total != 0) {
    fprintf(stderr, "total %ld, expected 0\n", total);
    bad = 1;
  }
  if (moves != (long)THREADS * OPS) {
    fprintf(stderr, "moves %ld, expected %d\n", moves, THREADS * OPS);
    bad = 1;
  }
  long per[THREADS] = {0};
  for (long i = 0; i < history_len; i++)
    if (history[i] >= 0 && history[i] < THREADS)
      per[history[i]]++;
  for (int i = 0; i < THREADS; i++)
    if (per[i] != OPS / 2) {
      fprintf(stderr, "thread %d: %ld history entries, expected %d\n", i,
              per[i], OPS / 2);
      bad = 1;
    }
  ptm_stats_t s;
  ptm_stats(&s);
  if (s.commits != (unsigned long)THREADS * OPS) {
    fprintf(stderr, "commits %lu, expected %d\n", (unsigned long)s.commits,
            THREADS * OPS);
    bad = 1;
  }
  printf("user_prog: %s [lib %s]\n", bad ? "FAILED" : "OK", ptm_algorithm());
  return bad;
}
