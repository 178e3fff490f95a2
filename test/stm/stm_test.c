/* stm_test MODE THREADS - concurrency stress tests of one ptm library,
 * compiled with the plugin (test/stm/CMakeLists.txt builds one per library).
 *
 *   bank       transfers and deposits; auditors check the total inside
 *              transactions; at the end no update is lost
 *   list       sorted linked-list set, insert/remove/lookup; the final set
 *              equals the initial one plus the committed inserts minus the
 *              committed removes, and the list is sorted and acyclic
 *   privatize  threads unlink nodes in a transaction, then write, check and
 *              free them outside any transaction while others update nodes
 *              in transactions
 *   starve     one long transaction that conflicts with everyone and short
 *              conflicting ones; the long one finishes in bounded time
 *   alloc      malloc/free inside contended transactions (with restarts):
 *              no leak (of the ordinary heap), no double free
 *   reuse      blocks freed by one thread are reused as another type while
 *              readers traverse: no transaction, even a doomed one, reads a
 *              freed block after its reuse
 *   holdback   (persistent libraries, on a small pool) a full heap whose only
 *              free block a running reader may still read: the allocation
 *              waits for the reader, then gets that block
 *   solo       bank transfers and audits by the main thread alone, then with
 *              THREADS threads joining it (three rounds), then alone again:
 *              with PTM_OPT_SOLO (default), gp_/ip_ orec_lazy and cgl_lazy
 *              run the lone thread's commits solo (ptm_stats'
 *              solo_commits), others never; the audits and totals hold
 *              across every hand-over
 *
 * With a persistent library (p_*, gp_*, ip_*) the same programs run on the
 * default temporary pool: malloc inside a transaction allocates from its heap.
 * Exit status 0 when every check passed.
 */
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <ptm.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../e2e/e2e_check.h"

static unsigned next_random(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return *state >> 8;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int nthreads;
static volatile int stop;

static void run_threads(void *(*fn)(void *), int n, void *args,
                        size_t arg_size) {
  pthread_t t[64];
  for (int i = 0; i < n; i++)
    pthread_create(&t[i], NULL, fn, (char *)args + i * arg_size);
  for (int i = 0; i < n; i++)
    pthread_join(t[i], NULL);
}

/* ---- bank --------------------------------------------------------------- */

#define ACCOUNTS 64
#define INITIAL 1000
static long accounts[ACCOUNTS];
static long deposited; /* sum of all deposits, updated with them */

struct bank_worker {
  int id;
  long ops;
  long deposits; /* committed by this thread */
  long audits;
};

static void transfer(int a, int b, long amount) {
  if (accounts[a] >= amount) {
    accounts[a] -= amount;
    accounts[b] += amount;
  }
}

static long bank_sum(void) {
  long s = 0;
  for (int i = 0; i < ACCOUNTS; i++)
    s += accounts[i];
  return s;
}

/* A deposit of D into account A, recorded by W once committed. */
static void bank_deposit(struct bank_worker *w, int a, long d) {
  PTM_BEGIN();
  accounts[a] += d;
  deposited += d;
  PTM_END();
  w->deposits += d;
}

/* One audit: the total inside a transaction is the initial one plus the
 * deposits. */
static void bank_audit_once(struct bank_worker *w) {
  long sum, dep;
  PTM_BEGIN();
  sum = bank_sum();
  dep = deposited;
  PTM_END();
  CHECK(sum == (long)ACCOUNTS * INITIAL + dep, "audit %ld != %ld + %ld", sum,
        (long)ACCOUNTS * INITIAL, dep);
  w->audits++;
}

static void *bank_run(void *arg) {
  struct bank_worker *w = arg;
  unsigned seed = 12345u * (unsigned)(w->id + 1);
  for (long i = 0; i < w->ops; i++) {
    int a = (int)(next_random(&seed) % ACCOUNTS);
    int b = (int)(next_random(&seed) % ACCOUNTS);
    long amount = (long)(next_random(&seed) % 100);
    if (i % 8 == 0) {
      bank_deposit(w, a, amount % 5 + 1);
    } else {
      PTM_BEGIN();
      transfer(a, b, amount);
      PTM_END();
    }
  }
  return NULL;
}

static void *bank_audit(void *arg) {
  struct bank_worker *w = arg;
  do {
    bank_audit_once(w);
    usleep(50);
  } while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE));
  return NULL;
}

static void *bank_main_workers(void *arg) {
  struct bank_worker *w = arg;
  run_threads(bank_run, nthreads, w, sizeof *w);
  __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void test_bank(long ops) {
  for (int i = 0; i < ACCOUNTS; i++)
    accounts[i] = INITIAL;
  struct bank_worker w[64], auditors[2];
  memset(w, 0, sizeof w);
  memset(auditors, 0, sizeof auditors);
  for (int i = 0; i < nthreads; i++) {
    w[i].id = i;
    w[i].ops = ops;
  }
  double t0 = now_seconds();
  pthread_t driver, aud[2];
  for (int i = 0; i < 2; i++)
    pthread_create(&aud[i], NULL, bank_audit, &auditors[i]);
  pthread_create(&driver, NULL, bank_main_workers, w);
  pthread_join(driver, NULL);
  double t = now_seconds() - t0;
  for (int i = 0; i < 2; i++)
    pthread_join(aud[i], NULL);
  long dep = 0;
  for (int i = 0; i < nthreads; i++)
    dep += w[i].deposits;
  CHECK(deposited == dep, "deposits lost: %ld committed, %ld recorded", dep,
        deposited);
  CHECK(bank_sum() == (long)ACCOUNTS * INITIAL + dep, "final total %ld",
        bank_sum());
  CHECK(auditors[0].audits > 0 && auditors[1].audits > 0, "no audits");
  printf("RESULT bench=stm_bank lib=%s threads=%d ops_per_s=%.0f\n",
         ptm_algorithm(), nthreads, (double)ops * nthreads / t);
}

/* ---- solo mode (bank accounts) ------------------------------------------ */

/* Solo mode (runtime/stm/solo_owner.h, and for the cgl-lazy family
 * runtime/stm/solo_lock.h): the libraries that have it, unless
 * built with -DPTM_OPT_SOLO=OFF (test/stm/CMakeLists.txt passes it on). */
#ifndef PTM_OPT_SOLO
#define PTM_OPT_SOLO 1
#endif
static int has_solo_mode(void) {
  const char *lib = ptm_algorithm();
  return PTM_OPT_SOLO && (!strncmp(lib, "gp_", 3) || !strncmp(lib, "ip_", 3)) &&
         (!strcmp(lib + 3, "orec_lazy") || !strcmp(lib + 3, "cgl_lazy"));
}

static unsigned long long solo_commits(void) {
  ptm_stats_t s;
  ptm_stats(&s);
  return (unsigned long long)s.solo_commits;
}

/* One bank operation (a transfer, every 8th a deposit, every 4th an audit
 * checked at once) by worker W. */
static void solo_step(struct bank_worker *w, unsigned *seed, long i) {
  int a = (int)(next_random(seed) % ACCOUNTS);
  int b = (int)(next_random(seed) % ACCOUNTS);
  long amount = (long)(next_random(seed) % 100);
  if (i % 8 == 0) {
    bank_deposit(w, a, amount % 5 + 1);
  } else if (i % 4 == 1) {
    bank_audit_once(w);
  } else {
    PTM_BEGIN();
    transfer(a, b, amount);
    PTM_END();
  }
}

static int joiners_running;

static void *solo_joiner(void *arg) {
  struct bank_worker *w = arg;
  unsigned seed = 777u * (unsigned)(w->id + 1);
  for (long i = 0; i < w->ops; i++)
    solo_step(w, &seed, i);
  __atomic_sub_fetch(&joiners_running, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void test_solo(long ops) {
  for (int i = 0; i < ACCOUNTS; i++)
    accounts[i] = INITIAL;
  int expect = has_solo_mode();
  struct bank_worker lone = {.id = 63}, w[64];
  memset(w, 0, sizeof w);
  unsigned seed = 99u;
  long step = 0;
  /* Alone. */
  for (long i = 0; i < ops; i++)
    solo_step(&lone, &seed, step++);
  unsigned long long alone = solo_commits();
  if (expect)
    CHECK(alone > 0, "no solo commit by the only thread (%ld operations)", ops);
  else
    CHECK(alone == 0, "%llu solo commits in a library without solo mode",
          alone);
  /* Joined: the main thread keeps going until its joiners are done. */
  for (int round = 0; round < 3; round++) {
    pthread_t t[64];
    __atomic_store_n(&joiners_running, nthreads, __ATOMIC_RELEASE);
    for (int i = 0; i < nthreads; i++) {
      w[i].id = i + 8 * round;
      w[i].ops = ops;
      pthread_create(&t[i], NULL, solo_joiner, &w[i]);
    }
    while (__atomic_load_n(&joiners_running, __ATOMIC_ACQUIRE) > 0)
      solo_step(&lone, &seed, step++);
    for (int i = 0; i < nthreads; i++)
      pthread_join(t[i], NULL);
    for (int i = 0; i < nthreads; i++)
      lone.deposits += w[i].deposits, lone.audits += w[i].audits,
          w[i].deposits = 0;
  }
  /* Alone again: the main thread takes the ownership back within the
   * longest back-off (16384 begins). */
  unsigned long long joined = solo_commits();
  long again = 0;
  while (again < 100000 && (!expect || solo_commits() == joined)) {
    solo_step(&lone, &seed, step++);
    if (++again == ops && !expect)
      break;
  }
  if (expect)
    CHECK(solo_commits() > joined,
          "no solo commit in %ld operations after "
          "the other threads exited",
          again);
  else
    CHECK(solo_commits() == 0, "solo commits in a library without solo mode");
  CHECK(deposited == lone.deposits,
        "deposits lost: %ld committed, %ld "
        "recorded",
        lone.deposits, deposited);
  CHECK(bank_sum() == (long)ACCOUNTS * INITIAL + deposited, "final total %ld",
        bank_sum());
  printf("solo: %s; %llu solo commits alone, %llu after joins, %llu in the "
         "end (%ld operations to take the ownership back); %ld audits\n",
         expect ? "solo mode" : "no solo mode", alone, joined, solo_commits(),
         again, lone.audits);
}

/* ---- sorted list sets (list, reuse) -------------------------------------- */

#define MAX_KEYS 256
#define MAGIC_NODE 0x4141414141414141L
struct node {
  long magic; /* MAGIC_NODE while the node is in a set */
  long key;
  struct node *next;
  long pad;
};
/* A sorted list of keys 0..KEYS-1; its nodes come from malloc (inside a
 * transaction: the library's transactional allocator) or, POOLED, from
 * ptm_malloc (the pool's heap with every persistent library). */
struct set {
  struct node head;
  long keys;
  int pooled;
};

static int set_insert(struct set *s, long key) {
  struct node *prev = &s->head, *cur = s->head.next;
  while (cur && cur->key < key) {
    prev = cur;
    cur = cur->next;
  }
  if (cur && cur->key == key)
    return 0;
  struct node *n = s->pooled ? ptm_malloc(sizeof *n) : malloc(sizeof *n);
  n->magic = MAGIC_NODE;
  n->key = key;
  n->next = cur;
  n->pad = 0;
  prev->next = n;
  return 1;
}

static int set_remove(struct set *s, long key) {
  struct node *prev = &s->head, *cur = s->head.next;
  while (cur && cur->key < key) {
    prev = cur;
    cur = cur->next;
  }
  if (!cur || cur->key != key)
    return 0;
  prev->next = cur->next;
  if (s->pooled)
    ptm_free(cur);
  else
    free(cur);
  return 1;
}

static int set_lookup(struct set *s, long key) {
  struct node *cur = s->head.next;
  while (cur && cur->key < key)
    cur = cur->next;
  return cur && cur->key == key;
}

struct set_worker {
  int id;
  long ops;
  long inserted[MAX_KEYS]; /* committed inserts per key */
  long removed[MAX_KEYS];
};
static struct set_worker set_workers[64];

/* The even keys, outside any transaction (malloc: the ordinary heap, whose
 * blocks transactions then free); the workers are cleared. */
static void set_fill(struct set *s, int *initial, long ops) {
  s->head.magic = MAGIC_NODE;
  s->head.key = -1;
  for (long k = (s->keys - 1) & ~1L; k >= 0; k -= 2) {
    struct node *n = s->pooled ? ptm_malloc(sizeof *n) : malloc(sizeof *n);
    n->magic = MAGIC_NODE;
    n->key = k;
    n->pad = 0;
    n->next = s->head.next;
    s->head.next = n;
    initial[k] = 1;
  }
  memset(set_workers, 0, sizeof set_workers);
  for (int i = 0; i < nthreads; i++) {
    set_workers[i].id = i;
    set_workers[i].ops = ops;
  }
}

/* After the workers: the list is sorted, holds only set nodes, and its keys
 * are the initial ones plus the committed inserts minus the committed
 * removes. Then it is emptied (ptm_free takes pool and ordinary blocks). */
static void set_check(struct set *s, const int *initial) {
  int present[MAX_KEYS] = {0};
  long prev = -1, length = 0;
  for (struct node *n = s->head.next; n; n = n->next) {
    CHECK(n->magic == MAGIC_NODE, "node %p is not a set node", (void *)n);
    CHECK(n->key > prev && n->key < s->keys, "bad key %ld after %ld", n->key,
          prev);
    if (n->magic != MAGIC_NODE || n->key <= prev || n->key >= s->keys ||
        ++length > s->keys)
      break; /* garbage or a cycle */
    present[n->key] = 1;
    prev = n->key;
  }
  for (long k = 0; k < s->keys; k++) {
    long expect = initial[k];
    for (int i = 0; i < nthreads; i++)
      expect += set_workers[i].inserted[k] - set_workers[i].removed[k];
    CHECK(expect == present[k], "key %ld: replay says %ld, list has %d", k,
          expect, present[k]);
  }
  while (s->head.next) {
    struct node *n = s->head.next;
    s->head.next = n->next;
    ptm_free(n);
  }
}

static struct set list_set = {{0, 0, NULL, 0}, 128, 0};

static void *list_run(void *arg) {
  struct set_worker *w = arg;
  unsigned seed = 777u * (unsigned)(w->id + 3);
  for (long i = 0; i < w->ops; i++) {
    long key = (long)(next_random(&seed) % list_set.keys);
    unsigned op = next_random(&seed) % 4;
    int done;
    if (op == 0) {
      PTM_BEGIN();
      done = set_insert(&list_set, key);
      PTM_END();
      w->inserted[key] += done;
    } else if (op == 1) {
      PTM_BEGIN();
      done = set_remove(&list_set, key);
      PTM_END();
      w->removed[key] += done;
    } else {
      PTM_BEGIN();
      done = set_lookup(&list_set, key);
      PTM_END();
      (void)done;
    }
  }
  return NULL;
}

static void test_list(long ops) {
  int initial[MAX_KEYS] = {0};
  set_fill(&list_set, initial, ops);
  run_threads(list_run, nthreads, set_workers, sizeof set_workers[0]);
  set_check(&list_set, initial);
}

/* ---- privatization ------------------------------------------------------- */

#define PAYLOAD 8
struct pnode {
  struct pnode *next;
  long data[PAYLOAD]; /* all equal while shared */
};
static struct pnode *plist;
static long privatized;

static void push_node(struct pnode *n) {
  n->next = plist;
  plist = n;
}

static void *priv_updater(void *arg) {
  unsigned seed = 99u * (unsigned)(*(int *)arg + 1);
  while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
    unsigned skip = next_random(&seed) % 8;
    PTM_BEGIN();
    struct pnode *n = plist;
    for (unsigned i = 0; n && i < skip; i++)
      n = n->next;
    if (n)
      for (int i = 0; i < PAYLOAD; i++)
        n->data[i] += 1;
    PTM_END();
  }
  return NULL;
}

static void *priv_privatizer(void *arg) {
  (void)arg;
  for (int round = 0; round < 3000; round++) {
    struct pnode *n;
    PTM_BEGIN();
    n = plist;
    if (n)
      plist = n->next;
    PTM_END();
    if (n) {
      /* Private now: no transaction may write it any more. */
      long v = n->data[0];
      for (int i = 1; i < PAYLOAD; i++)
        CHECK(n->data[i] == v, "garbled node: data[%d]=%ld, data[0]=%ld", i,
              n->data[i], v);
      for (int i = 0; i < PAYLOAD; i++)
        n->data[i] = -7;
      for (volatile int spin = 0; spin < 200; spin++) {
      }
      for (int i = 0; i < PAYLOAD; i++)
        CHECK(n->data[i] == -7,
              "late transactional write to a private node: "
              "%ld",
              n->data[i]);
      memset(n, 0xdb, sizeof *n);
      free(n);
      privatized++;
    }
    /* Keep the list populated with fresh nodes. */
    struct pnode *fresh = malloc(sizeof *fresh);
    for (int i = 0; i < PAYLOAD; i++)
      fresh->data[i] = round;
    PTM_BEGIN();
    push_node(fresh);
    PTM_END();
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void test_privatize(void) {
  for (int i = 0; i < 16; i++) {
    struct pnode *n = calloc(1, sizeof *n);
    n->next = plist;
    plist = n;
  }
  int ids[64];
  pthread_t t[64];
  int updaters = nthreads > 1 ? nthreads - 1 : 1;
  for (int i = 0; i < updaters; i++) {
    ids[i] = i;
    pthread_create(&t[i], NULL, priv_updater, &ids[i]);
  }
  pthread_t p;
  pthread_create(&p, NULL, priv_privatizer, NULL);
  pthread_join(p, NULL);
  for (int i = 0; i < updaters; i++)
    pthread_join(t[i], NULL);
  CHECK(privatized > 1000, "only %ld nodes privatized", privatized);
  for (struct pnode *n = plist; n;) {
    struct pnode *next = n->next;
    for (int i = 1; i < PAYLOAD; i++)
      CHECK(n->data[i] == n->data[0], "garbled shared node");
    free(n);
    n = next;
  }
}

/* ---- reuse of freed memory ----------------------------------------------- */

/* Readers traverse a set in transactions while other threads unlink and
 * free nodes (often ones another thread allocated) and allocate blocks of
 * the same size as B objects, which they fill with pointers to a trap node
 * (written in place by last-allocation tracking). A transaction, even a
 * doomed one, must never see a freed node already reused as a B object: the
 * heap may hand a freed block out again only once every transaction that
 * could still read it has ended. */
#define MAGIC_TRAP 0x7474747474747474L
struct bobj {
  long words[4]; /* sizeof(struct node): the same size class */
};
static struct set reuse_set = {{0, 0, NULL, 0}, MAX_KEYS, 1};
static struct node trap = {MAGIC_TRAP, MAX_KEYS, NULL, 0};
static long reused_seen; /* transactions that met a reused block */

/* Uninstrumented: the count survives the abort of the doomed attempt. */
PTM_PURE __attribute__((noinline)) static void saw_reused(void) {
  __atomic_add_fetch(&reused_seen, 1, __ATOMIC_RELAXED);
}

/* Walks the set, then reads every node it passed again through the
 * pointers it kept: a node freed meanwhile must still be a set node. */
static long reuse_traverse(void) {
  struct node *seen[MAX_KEYS];
  long keys[MAX_KEYS];
  long length = 0, prev = -1;
  for (struct node *n = reuse_set.head.next; n && length < MAX_KEYS;
       n = n->next) {
    if (n->magic != MAGIC_NODE || n->key <= prev || n->key >= MAX_KEYS) {
      saw_reused();
      return -1;
    }
    prev = n->key;
    seen[length] = n;
    keys[length++] = n->key;
  }
  for (long i = 0; i < length; i++)
    if (seen[i]->magic != MAGIC_NODE || seen[i]->key != keys[i]) {
      saw_reused();
      return -1;
    }
  return length;
}

/* Reuses the most recently freed block of the size class as a B object. */
static void reuse_scribble(void) {
  struct bobj *b = ptm_malloc(sizeof *b);
  for (int i = 0; i < 4; i++)
    b->words[i] = (long)(uintptr_t)&trap;
  ptm_free(b);
}

static void *reuse_run(void *arg) {
  struct set_worker *w = arg;
  unsigned seed = 4099u * (unsigned)(w->id + 7);
  for (long i = 0; i < w->ops; i++) {
    long key = (long)(next_random(&seed) % MAX_KEYS);
    unsigned op = next_random(&seed) % 4;
    int done;
    if (op == 0) {
      PTM_BEGIN();
      done = reuse_traverse() >= 0;
      PTM_END();
    } else if (op == 1) {
      PTM_BEGIN();
      done = set_insert(&reuse_set, key);
      PTM_END();
      w->inserted[key] += done;
    } else if (op == 2) {
      PTM_BEGIN();
      done = set_remove(&reuse_set, key);
      PTM_END();
      w->removed[key] += done;
    } else {
      PTM_BEGIN();
      reuse_scribble();
      PTM_END();
    }
  }
  return NULL;
}

static void test_reuse(long ops) {
  int initial[MAX_KEYS] = {0};
  set_fill(&reuse_set, initial, ops);
  run_threads(reuse_run, nthreads, set_workers, sizeof set_workers[0]);
  CHECK(reused_seen == 0,
        "%ld transactions read a freed block after it was reused", reused_seen);
  set_check(&reuse_set, initial);
}

/* ---- waiting for held-back memory ---------------------------------------- */

/* The pool's heap is full (the ctest runs this mode on a small pool). A
 * reader's attempt is running when a second thread frees a block and then
 * allocates: the only free block is the one it freed, which the reader may
 * still read, so the allocation waits (an abort counted as reuse_waits) until
 * the reader's attempt has ended, and then gets that block. Nothing here
 * depends on timing: the reader ends its attempt only once the writer waits. */
static void *volatile held_block;
static int reader_running, writer_done, reader_ended;

PTM_PURE __attribute__((noinline)) static void reader_hold(void) {
  __atomic_store_n(&reader_running, 1, __ATOMIC_RELEASE);
  for (;;) {
    ptm_stats_t s;
    ptm_stats(&s);
    if (s.reuse_waits > 0 || __atomic_load_n(&writer_done, __ATOMIC_ACQUIRE))
      return;
    sched_yield();
  }
}

static long held_word;
static void *holdback_reader(void *arg) {
  (void)arg;
  long v;
  PTM_BEGIN();
  v = held_word;
  reader_hold();
  PTM_END();
  (void)v;
  __atomic_store_n(&reader_ended, 1, __ATOMIC_RELEASE);
  return NULL;
}

static void *holdback_writer(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&reader_running, __ATOMIC_ACQUIRE))
    sched_yield();
  void *x = held_block;
  PTM_BEGIN();
  ptm_free(x);
  PTM_END();
  void *p;
  PTM_BEGIN();
  p = ptm_malloc(64);
  PTM_END();
  int after_reader = __atomic_load_n(&reader_ended, __ATOMIC_ACQUIRE);
  __atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
  CHECK(p == x, "allocated %p, the only free block is %p", p, x);
  CHECK(after_reader, "the freed block was reused while the reader ran");
  return NULL;
}

static void test_holdback(void) {
  /* Fill the heap with 64-byte blocks (one transaction each). */
  size_t cap = 1 << 16, n = 0;
  void **blocks = malloc(cap * sizeof *blocks);
  for (void *p; (p = ptm_malloc(64));) {
    if (n == cap)
      blocks = realloc(blocks, (cap *= 2) * sizeof *blocks);
    blocks[n++] = p;
  }
  CHECK(n > 1000 && n < (1u << 22), "%zu blocks fill the heap", n);
  held_block = blocks[n / 2];
  pthread_t r, w;
  pthread_create(&r, NULL, holdback_reader, NULL);
  pthread_create(&w, NULL, holdback_writer, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  ptm_stats_t s;
  ptm_stats(&s);
  CHECK(s.reuse_waits >= 1, "the allocation did not wait (%llu)",
        (unsigned long long)s.reuse_waits);
  printf("holdback: %zu blocks filled the heap; the allocation waited %llu "
         "time(s)\n",
         n, (unsigned long long)s.reuse_waits);
  for (size_t i = 0; i < n; i++)
    ptm_free(blocks[i]);
  free(blocks);
}

/* ---- starvation / hourglass ---------------------------------------------- */

#define CELLS 4096
static long cells[CELLS];
static long short_commits[64];

static void *starve_short(void *arg) {
  int id = *(int *)arg;
  unsigned seed = 5u * (unsigned)(id + 1);
  while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
    int a = (int)(next_random(&seed) % CELLS);
    int b = (int)(next_random(&seed) % CELLS);
    PTM_BEGIN();
    cells[a] += 1;
    cells[b] -= 1;
    PTM_END();
    __atomic_add_fetch(&short_commits[id], 1, __ATOMIC_RELEASE);
  }
  return NULL;
}

/* Counts the attempts of the long transaction (uninstrumented, so an abort
 * does not roll the count back). */
static long long_attempts;
PTM_PURE __attribute__((noinline)) static void count_attempt(void) {
  long_attempts++;
}

static void test_starve(void) {
  int ids[3] = {0, 1, 2};
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    pthread_create(&t[i], NULL, starve_short, &ids[i]);
  /* The short transactions are running (each thread has committed some). */
  for (int i = 0; i < 3; i++)
    while (__atomic_load_n(&short_commits[i], __ATOMIC_ACQUIRE) < 100)
      sched_yield();
  double t0 = now_seconds();
  int rounds = 20;
  long max_attempts = 0;
  /* A persistent library logs every write in its thread's pool slot (8188
   * entries in the default pool): the long transaction writes half the
   * cells there (still conflicting with most short ones) and reads all. */
  int persistent = ptm_is_persistent();
  int written = persistent ? CELLS / 2 : CELLS;
  for (int r = 0; r < rounds; r++) {
    long sum;
    long_attempts = 0;
    PTM_BEGIN();
    count_attempt();
    sum = 0;
    for (int i = 0; i < CELLS; i++) {
      sum += cells[i];
      if (i < written)
        cells[i] += 1; /* conflicts with everyone */
    }
    for (int i = 0; i < written; i++)
      cells[i] -= 1;
    PTM_END();
    CHECK(sum == 0, "long transaction saw sum %ld", sum);
    if (long_attempts > max_attempts)
      max_attempts = long_attempts;
  }
  double took = now_seconds() - t0;
  __atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  long sum = 0;
  for (int i = 0; i < CELLS; i++)
    sum += cells[i];
  CHECK(sum == 0, "final sum %ld", sum);
  ptm_stats_t s;
  ptm_stats(&s);
  /* A long transaction that aborted K times in a row became distressed (or
   * found another distressed one holding the hourglass). */
  const char *k_env = getenv("PTM_HOURGLASS_K");
  long k = k_env ? atol(k_env) : 16;
  /* The readers-writer lock has no hourglass: an attempt that found the
   * writer's token taken restarts as the writer (libs/global_rw_lock.h), so
   * a transaction restarts once at most. */
  if (strstr(ptm_algorithm(), "rwl") != NULL)
    CHECK(max_attempts <= 2, "a long transaction took %ld attempts",
          max_attempts);
  else if (strstr(ptm_algorithm(), "cgl") == NULL && max_attempts > k)
    CHECK(s.hourglass_distressed > 0,
          "no hourglass activity after %ld "
          "attempts",
          max_attempts);
  printf("starve: at most %ld attempts for a long transaction\n", max_attempts);
  printf("starve: %d long transactions in %.3f s; aborts %llu (read %llu "
         "write %llu validation %llu); hourglass: %llu distressed, %llu "
         "waits\n",
         rounds, took, (unsigned long long)s.aborts,
         (unsigned long long)s.aborts_read, (unsigned long long)s.aborts_write,
         (unsigned long long)s.aborts_validation,
         (unsigned long long)s.hourglass_distressed,
         (unsigned long long)s.hourglass_waits);
}

/* ---- allocation ---------------------------------------------------------- */

/* Uninstrumented: the flag survives the rollback of the restarted attempt. */
static int restart_flags[64];
PTM_PURE __attribute__((noinline)) static int first_time(int id) {
  int first = !restart_flags[id];
  restart_flags[id] = 1;
  return first;
}

struct blob {
  struct blob *next;
  size_t size;
  unsigned char bytes[];
};
static struct blob *blobs;
static long live_blobs; /* updated in the same transactions */

static void *alloc_run(void *arg) {
  int id = *(int *)arg;
  unsigned seed = 31u * (unsigned)(id + 1);
  for (int i = 0; i < 4000; i++) {
    unsigned r = next_random(&seed);
    size_t size = 16 + r % 600;
    int restart = r % 13 == 0;
    restart_flags[id] = 0;
    if (r % 3 != 0) {
      PTM_BEGIN();
      struct blob *b = malloc(sizeof *b + size);
      b->size = size;
      memset(b->bytes, (int)(size & 0xff), size);
      b->next = blobs;
      blobs = b;
      live_blobs++;
      if (restart && first_time(id))
        ptm_restart();
      PTM_END();
    } else {
      PTM_BEGIN();
      struct blob *b = blobs;
      if (b) {
        blobs = b->next;
        live_blobs--;
        free(b);
      }
      if (restart && first_time(id))
        ptm_restart();
      PTM_END();
    }
  }
  return NULL;
}

static void alloc_round(void) {
  int ids[64];
  for (int i = 0; i < nthreads; i++)
    ids[i] = i;
  run_threads(alloc_run, nthreads, ids, sizeof ids[0]);
  long count = 0;
  for (struct blob *b = blobs; b; b = b->next) {
    for (size_t i = 0; i < b->size; i++)
      if (b->bytes[i] != (unsigned char)(b->size & 0xff)) {
        CHECK(0, "blob of %zu bytes corrupted at %zu", b->size, i);
        break;
      }
    count++;
  }
  CHECK(count == live_blobs, "%ld blobs in the list, %ld counted", count,
        live_blobs);
  while (blobs) { /* pool blocks with persistent libraries: ptm_free */
    struct blob *b = blobs;
    blobs = b->next;
    ptm_free(b);
  }
  live_blobs = 0;
  malloc_trim(0);
}

static void test_alloc(void) {
  /* The first round warms up what threads keep (arenas, runtime records);
   * each of the next ones must give back everything it allocated. A lost
   * blob (16..616 bytes; hundreds of restarts a round) would grow the heap
   * in every round. What the runtime's bookkeeping keeps grows in steps (a
   * vector's capacity doubles when a round happens to need more, as when
   * preempted transactions hold freed memory back longer): a step cannot
   * recur in every round, so the smallest growth of the rounds is the
   * measure. Each new thread leaves a statistics record (~200 bytes).
   * ptm_sync: a persistent library's persister (buffered durability, sp3)
   * has written every queued commit and freed its buffers, so every
   * measurement sees the same quiescent state. */
  enum { kRounds = 4 };
  alloc_round();
  ptm_sync();
  long least = LONG_MAX;
  for (int k = 0; k < kRounds; k++) {
    struct mallinfo2 before = mallinfo2();
    alloc_round();
    ptm_sync();
    struct mallinfo2 after = mallinfo2();
    long grown = (long)after.uordblks - (long)before.uordblks;
    least = grown < least ? grown : least;
  }
  CHECK(least < 8 * 1024,
        "heap in use grew by %ld bytes or more in each of %d rounds", least,
        kRounds);
  ptm_stats_t s;
  ptm_stats(&s);
  CHECK(s.aborts_restart > 0, "no restarts");
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(
        stderr,
        "usage: stm_test bank|list|privatize|starve|alloc|reuse|holdback|solo "
        "THREADS [OPS]\n");
    return 2;
  }
  nthreads = atoi(argv[2]);
  if (nthreads < 1 || nthreads > 64)
    nthreads = 2;
  long ops = argc > 3 ? atol(argv[3]) : 20000;
  const char *mode = argv[1];
  if (!strcmp(mode, "bank"))
    test_bank(ops);
  else if (!strcmp(mode, "list"))
    test_list(ops);
  else if (!strcmp(mode, "privatize"))
    test_privatize();
  else if (!strcmp(mode, "starve"))
    test_starve();
  else if (!strcmp(mode, "alloc"))
    test_alloc();
  else if (!strcmp(mode, "reuse"))
    test_reuse(ops);
  else if (!strcmp(mode, "holdback"))
    test_holdback();
  else if (!strcmp(mode, "solo"))
    test_solo(ops);
  else {
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  if (getenv("STM_TEST_STATS"))
    ptm_stats_print(stderr);
  if (e2e_failures) {
    fprintf(stderr, "stm_test %s: FAILED (%d checks) [lib %s]\n", mode,
            e2e_failures, ptm_algorithm());
    return 1;
  }
  printf("stm_test %s: ok [lib %s, %d threads]\n", mode, ptm_algorithm(),
         nthreads);
  return 0;
}
