/* The STAMP thread pool: see thread.h. */
#include "thread.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long num_threads = 1;
static pthread_t *workers;
static pthread_barrier_t start_barrier;  /* work handed out            */
static pthread_barrier_t finish_barrier; /* work done                  */
static pthread_barrier_t user_barrier;   /* thread_barrier_wait()      */
static void (*work_fn)(void *);
static void *work_arg;
static int shutting_down;
static _Thread_local long my_id;

static void *worker_main(void *arg) {
  my_id = (long)arg;
  for (;;) {
    pthread_barrier_wait(&start_barrier);
    if (shutting_down)
      return NULL;
    work_fn(work_arg);
    pthread_barrier_wait(&finish_barrier);
  }
}

void thread_startup(long numThread) {
  if (numThread < 1 || numThread > STAMP_MAX_THREADS) {
    fprintf(stderr, "thread_startup: %ld threads (1..%d)\n", numThread,
            STAMP_MAX_THREADS);
    exit(2);
  }
  num_threads = numThread;
  my_id = 0;
  unsigned n = (unsigned)numThread;
  pthread_barrier_init(&start_barrier, NULL, n);
  pthread_barrier_init(&finish_barrier, NULL, n);
  pthread_barrier_init(&user_barrier, NULL, n);
  workers = calloc((size_t)numThread, sizeof *workers);
  if (!workers) {
    fprintf(stderr, "thread_startup: out of memory\n");
    exit(1);
  }
  for (long i = 1; i < numThread; i++)
    if (pthread_create(&workers[i], NULL, worker_main, (void *)i) != 0) {
      fprintf(stderr, "thread_startup: cannot create thread %ld\n", i);
      exit(1);
    }
}

void thread_start(void (*fn)(void *), void *arg) {
  work_fn = fn;
  work_arg = arg;
  pthread_barrier_wait(&start_barrier);
  fn(arg);
  pthread_barrier_wait(&finish_barrier);
}

void thread_shutdown(void) {
  shutting_down = 1;
  pthread_barrier_wait(&start_barrier);
  for (long i = 1; i < num_threads; i++)
    pthread_join(workers[i], NULL);
  pthread_barrier_destroy(&start_barrier);
  pthread_barrier_destroy(&finish_barrier);
  pthread_barrier_destroy(&user_barrier);
  free(workers);
  workers = NULL;
  shutting_down = 0;
  num_threads = 1;
}

void thread_barrier_wait(void) { pthread_barrier_wait(&user_barrier); }
long thread_getId(void) { return my_id; }
long thread_getNumThread(void) { return num_threads; }
