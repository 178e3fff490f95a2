/*
 * libtest: the STAMP support library under concurrent transactions. THREADS
 * threads run OPS transactions each; a transaction picks a random key and
 * inserts it into (or removes it from) a shared red-black tree, hash table
 * and sorted list together, toggles its bit in a shared bitmap, and pushes
 * it onto a shared queue, heap and vector. At the end the three sets must
 * hold the same keys as the bitmap, every structure must be well formed, the
 * heap must pop in order, and the pushes must add up.
 *
 *   libtest [-t THREADS] [-n OPS] [-k KEYS]
 */
#include <stdio.h>
#include <stdlib.h>

#include "bitmap.h"
#include "hashtable.h"
#include "heap.h"
#include "list.h"
#include "options.h"
#include "pair.h"
#include "queue.h"
#include "random.h"
#include "rbtree.h"
#include "stamp_result.h"
#include "tm.h"
#include "vector.h"

static long num_threads = 1, num_ops = 2000, num_keys = 256;

static rbtree_t *tree;
static hashtable_t *table;
static list_t *list;
static bitmap_t *bits;
static queue_t *queue;
static heap_t *heap;
static vector_t *vec;
static long pushes[STAMP_MAX_THREADS];

static long compare_long(const void *a, const void *b) {
  long x = (long)a, y = (long)b;
  return x < y ? -1 : x > y ? 1 : 0;
}

static ulong_t hash_long(const void *key) {
  return (ulong_t)key * 2654435761UL;
}

static void work(void *arg) {
  (void)arg;
  long id = thread_getId();
  random_t *r = random_alloc();
  random_seed(r, (unsigned long)id + 1);
  long pushed = 0;
  for (long i = 0; i < num_ops; i++) {
    long key = 1 + (long)(random_generate(r) % (unsigned long)num_keys);
    TM_BEGIN();
    if (bitmap_isSet(bits, key)) {
      rbtree_delete(tree, (void *)key);
      hashtable_remove(table, (void *)key);
      list_remove(list, (void *)key);
      bitmap_clear(bits, key);
    } else {
      pair_t *p = pair_alloc((void *)key, (void *)-key);
      pair_swap(p);
      rbtree_insert(tree, (void *)key, p->first);
      hashtable_insert(table, (void *)key, p->second);
      list_insert(list, (void *)key);
      bitmap_set(bits, key);
      pair_free(p);
    }
    queue_push(queue, (void *)key);
    heap_insert(heap, (void *)key);
    vector_pushBack(vec, (void *)key);
    if (queue_getSize(queue) > 64)
      queue_pop(queue);
    TM_END();
    pushed++;
  }
  pushes[id] = pushed;
  random_free(r);
}

static int check(void) {
  int ok = 1;
  long n = bitmap_getNumSet(bits);
  if (rbtree_verify(tree) != n || rbtree_getSize(tree) != n ||
      hashtable_getSize(table) != n || list_getSize(list) != n) {
    fprintf(stderr,
            "libtest: sizes differ: bitmap %ld tree %ld table %ld list %ld\n",
            n, rbtree_getSize(tree), hashtable_getSize(table),
            list_getSize(list));
    ok = 0;
  }
  long prev = 0, count = 0;
  list_iter_t it;
  list_iter_reset(&it, list);
  while (list_iter_hasNext(&it)) {
    long key = (long)list_iter_next(&it);
    count++;
    if (key <= prev || !bitmap_isSet(bits, key) ||
        rbtree_get(tree, (void *)key) != (void *)-key ||
        hashtable_find(table, (void *)key) != (void *)key) {
      fprintf(stderr, "libtest: key %ld inconsistent\n", key);
      ok = 0;
    }
    prev = key;
  }
  long hcount = 0, bucket = 0;
  hashtable_entry_t *e = NULL;
  while (hashtable_next(table, &bucket, &e))
    hcount++;
  long tcount = 0;
  for (rbtree_node_t *t = rbtree_first(tree); t; t = rbtree_next(t))
    tcount++;
  if (count != n || hcount != n || tcount != n) {
    fprintf(stderr, "libtest: iteration counts %ld %ld %ld, expected %ld\n",
            count, hcount, tcount, n);
    ok = 0;
  }
  long total = 0;
  for (long i = 0; i < num_threads; i++)
    total += pushes[i];
  if (heap_getSize(heap) != total || vector_getSize(vec) != total ||
      queue_getSize(queue) != (total < 64 ? total : 64) ||
      !heap_isValid(heap)) {
    fprintf(stderr, "libtest: heap %ld vector %ld queue %ld, pushed %ld\n",
            heap_getSize(heap), vector_getSize(vec), queue_getSize(queue),
            total);
    ok = 0;
  }
  vector_sort(vec, compare_long);
  for (long i = total - 1; i >= 0; i--) {
    void *top = heap_remove(heap);
    if (top != vector_at(vec, i)) {
      fprintf(stderr, "libtest: heap order differs from the sorted vector\n");
      ok = 0;
      break;
    }
  }
  return ok;
}

static void usage(void) {
  fprintf(stderr, "usage: libtest [-t THREADS] [-n OPS] [-k KEYS]\n");
  exit(2);
}

static const stamp_option_t options[] = {
    {'t', STAMP_OPT_LONG, &num_threads, 1, STAMP_MAX_THREADS},
    {'n', STAMP_OPT_LONG, &num_ops, 1, 1L << 40},
    {'k', STAMP_OPT_LONG, &num_keys, 1, 1L << 40},
    {0, STAMP_OPT_FLAG, NULL, 0, 0}};

int main(int argc, char **argv) {
  stamp_parse_options(argc, argv, "libtest", options, usage);
  tree = rbtree_alloc(NULL);
  table = hashtable_alloc(31, hash_long, compare_long);
  list = list_alloc(compare_long);
  bits = bitmap_alloc(num_keys + 1);
  queue = queue_alloc(4);
  heap = heap_alloc(5, compare_long); /* grows in other txs than vec */
  vec = vector_alloc(4);
  if (!tree || !table || !list || !bits || !queue || !heap || !vec) {
    fprintf(stderr, "libtest: out of memory\n");
    return 1;
  }
  stamp_result_run(num_threads, work, NULL);
  int ok = check();
  return stamp_result_print("libtest", num_threads, ok);
}
