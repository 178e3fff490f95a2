//===- thread_exit_key.h - a per-thread clean-up at thread exit -*- C++ -*-===//
//
// Per-thread state in static TLS is constant-initialized and trivially
// destructible (no TLS wrapper on the fast paths), so what it allocates is
// freed by a pthread key's destructor. ThreadExitKey<F>::set(arg) makes the
// calling thread's exit call F(arg), once per key: one key per F, created
// at the first set.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_THREAD_EXIT_KEY_H
#define PTM_RUNTIME_THREAD_EXIT_KEY_H

#include <pthread.h>

namespace ptm {

[[noreturn]] void fatal(const char *fmt, ...);

template <void (*F)(void *)> struct ThreadExitKey {
  static void set(void *arg) {
    static pthread_key_t key = [] {
      pthread_key_t k;
      if (pthread_key_create(&k, F) != 0)
        fatal("cannot create a thread-exit key");
      return k;
    }();
    pthread_setspecific(key, arg);
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_THREAD_EXIT_KEY_H
