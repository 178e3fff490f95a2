//===- tx_thread.cpp - the per-thread transaction descriptor --------------===//

#include "runtime/base/tx_thread.h"

#include "runtime/base/report.h"
#include "runtime/base/stats.h"

#include <pthread.h>

namespace ptm {

ptm_stats_t unattached_stats;

__thread TxThread tls_tx;

// The calling thread's stack (its whole reserved range): [*lo, *hi).
// Frames below a transaction's stack_mark are dead when the attempt ends,
// wherever the stack pointer is then.
static void thread_stack(const void **lo, const void **hi) {
  pthread_attr_t attr;
  void *base = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
  }
  if (!base)
    fatal("cannot find the bounds of this thread's stack");
  *lo = base;
  *hi = static_cast<const char *>(base) + size;
}

static pthread_key_t exit_key;

static void on_thread_exit(void *arg) {
  auto *tx = static_cast<TxThread *>(arg);
  if (tx->depth > 0)
    warning("a thread exited inside a transaction (begun at %s)",
            tx->where ? tx->where : "?");
  tx->undo.release();
  tx->allocs.release();
  tx->frees.release();
  tx->captured.release();
}

static void create_exit_key() {
  if (pthread_key_create(&exit_key, on_thread_exit) != 0)
    fatal("cannot create the thread-exit key");
}

void attach_thread(TxThread &tx) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, create_exit_key);
  tx.stats = register_thread_stats();
  thread_stack(&tx.thread_stack_lo, &tx.thread_stack_hi);
  pthread_setspecific(exit_key, &tx);
  tx.attached = true;
}

} // namespace ptm
