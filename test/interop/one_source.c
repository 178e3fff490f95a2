/*
 * one_source.c - one program, unchanged, against every library: ptm_open,
 * ptm_root, ptm_malloc/ptm_calloc and transactions at 2 threads.
 *
 * With a persistent library the data outlives ptm_close and the process (a
 * new process reopens the pool and finds every transfer); with an STM library
 * ptm_open succeeds, says exactly once that there is no crash consistency,
 * leaves the file alone, and the data lives as long as the process
 * (docs/pool.md "STM libraries").
 */
#include "interop.h"

#include "../e2e/e2e_check.h"

#include <pthread.h>
#include <ptm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAGIC 0x6f6e652d73726321ull
#define ACCOUNTS 64
#define INITIAL 1000
#define THREADS 2
#define TRANSFERS 1000 /* per thread */

struct bank {
  uint64_t magic;
  long *accounts; /* ACCOUNTS, from ptm_calloc */
  long transfers;
};

static struct bank *bank;

static void *transfer_thread(void *arg) {
  unsigned seed = (unsigned)(uintptr_t)arg;
  for (int i = 0; i < TRANSFERS; i++) {
    seed = seed * 1103515245u + 12345u;
    int from = (seed >> 8) % ACCOUNTS, to = (seed >> 16) % ACCOUNTS;
    long amount = (long)((seed >> 4) % 10);
    PTM_BEGIN();
    bank->accounts[from] -= amount;
    bank->accounts[to] += amount;
    bank->transfers++;
    PTM_END();
  }
  return NULL;
}

static void check_bank(const char *when, long transfers) {
  CHECK(bank != NULL && bank->magic == MAGIC, "%s: no bank", when);
  if (!bank || bank->magic != MAGIC)
    return;
  long sum = 0;
  for (int i = 0; i < ACCOUNTS; i++)
    sum += bank->accounts[i];
  CHECK(sum == (long)ACCOUNTS * INITIAL, "%s: total %ld", when, sum);
  CHECK(bank->transfers == transfers, "%s: %ld transfers, expected %ld", when,
        bank->transfers, transfers);
}

/* Opens POOL with stderr captured; returns ptm_open's result and adds the
 * number of "no crash consistency" lines it printed to *notes. */
static int open_counting_notes(const char *pool, size_t size, int *notes) {
  fflush(stderr);
  int saved = dup(2);
  FILE *capture = tmpfile();
  if (saved < 0 || !capture) {
    CHECK(0, "cannot capture stderr");
    return ptm_open(pool, size);
  }
  dup2(fileno(capture), 2);
  int rc = ptm_open(pool, size);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(capture);
  char line[1024];
  while (fgets(line, sizeof line, capture)) {
    fputs(line, stderr);
    if (strstr(line, "no crash consistency"))
      ++*notes;
  }
  fclose(capture);
  return rc;
}

/* The second process: reopens POOL. */
static int reopen(const char *pool) {
  int persistent = ptm_is_persistent();
  int notes = 0;
  CHECK_EQ(open_counting_notes(pool, 0, &notes), 0);
  CHECK_EQ(notes, persistent ? 0 : 1);
  bank = ptm_root(sizeof *bank);
  if (persistent)
    check_bank("new process", (long)THREADS * TRANSFERS);
  else
    CHECK(bank && bank->magic == 0, "an STM library's root is new");
  ptm_close();
  return e2e_failures;
}

int interop_one_source(const char *pool) {
  if (getenv("INTEROP_REOPEN"))
    return reopen(pool);
  int persistent = ptm_is_persistent();
  unlink(pool);
  int notes = 0;
  CHECK_EQ(open_counting_notes(pool, 64u << 20, &notes), 0);
  CHECK_EQ(access(pool, F_OK) == 0, persistent);
  bank = ptm_root(sizeof *bank);
  CHECK(bank != NULL, "ptm_root failed");
  if (!bank)
    return e2e_failures;
  CHECK(bank->magic == 0, "a new root object is zeroed");
  PTM_BEGIN();
  bank->accounts = ptm_calloc(ACCOUNTS, sizeof(long));
  for (int i = 0; i < ACCOUNTS; i++)
    bank->accounts[i] = INITIAL;
  bank->magic = MAGIC;
  PTM_END();

  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, transfer_thread, (void *)(i + 1));
  for (int i = 0; i < THREADS; i++)
    pthread_join(t[i], NULL);
  check_bank("after the transfers", (long)THREADS * TRANSFERS);

  /* ptm_close and ptm_open again: the same data, no second note. */
  ptm_close();
  CHECK_EQ(open_counting_notes(pool, 0, &notes), 0);
  CHECK_EQ(notes, persistent ? 0 : 1);
  bank = ptm_root(sizeof *bank);
  check_bank("after reopening", (long)THREADS * TRANSFERS);
  ptm_close();
  CHECK_EQ(access(pool, F_OK) == 0, persistent);

  /* A new process. */
  pid_t pid = fork();
  if (pid == 0) {
    setenv("INTEROP_REOPEN", "1", 1);
    execl("/proc/self/exe", "interop", "one-source", pool, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
        "the new process failed (status %d)", status);
  unlink(pool);
  return e2e_failures;
}
