// pool_delete.cpp - C++ delete of objects in pool memory, outside
// transactions: libstdc++'s operator delete (plain, sized, array) frees with
// free, which the runtime sends to the pool (runtime/pool/pool_libc.cpp).
// More memory goes through the pool than it holds, so a delete that did not
// reach the pool's heap runs it out of space.

#include "interop.h"

#include <cstring>
#include <new>
#include <ptm.h>

namespace {

struct Record {
  long key;
  char body[16 * 1024 - 16];
  Record *next;
};

int failures;

void check(bool ok, const char *what, int round) {
  if (!ok) {
    fprintf(stderr, "pool_delete.cpp: round %d: %s\n", round, what);
    ++failures;
  }
}

} // namespace

extern "C" int interop_delete(void) {
  // 4000 x 16 KiB x 2 = 125 MiB of Records through a 64 MiB pool (a p_
  // library logs every word of a Record built in a transaction: 2048 fit).
  const int rounds = 4000;
  for (int r = 0; r < rounds && failures == 0; ++r) {
    // Constructed in pool memory outside a transaction, deleted (sized).
    void *m = ptm_malloc(sizeof(Record));
    check(m != nullptr, "ptm_malloc failed", r);
    if (!m)
      break;
    Record *a = new (m) Record{r, {}, nullptr};
    a->body[sizeof a->body - 1] = 1;
    delete a;
    // Allocated in a transaction (ptm_malloc: the pool with every persistent
    // library), constructed there, deleted outside.
    Record *b = nullptr;
    ptm::atomic([&] {
      void *p = ptm_malloc(sizeof(Record));
      if (p) {
        b = new (p) Record{r, {}, nullptr};
        b->body[0] = 2;
      }
    });
    check(b != nullptr && b->key == r && b->body[0] == 2,
          "transactional construction", r);
    delete b;
    // An array: new[] in a transaction (the pool with an ip_ library),
    // delete[] outside.
    long *v = nullptr;
    ptm::atomic([&] {
      v = new long[4096];
      v[0] = r;
    });
    check(v && v[0] == r, "new[] in a transaction", r);
    delete[] v;
  }
  return failures;
}
