/*
 * thread.h - the STAMP thread pool: thread_startup(n) creates n-1 workers,
 * thread_start(fn, arg) runs fn(arg) on all n threads (the caller is thread
 * 0) and returns when every one has finished; thread_barrier_wait() is a
 * barrier of the n threads inside fn.
 */
#ifndef STAMP_THREAD_H
#define STAMP_THREAD_H

#define STAMP_MAX_THREADS 1024

void thread_startup(long numThread);
void thread_start(void (*fn)(void *), void *arg);
void thread_shutdown(void);
void thread_barrier_wait(void);
long thread_getId(void);
long thread_getNumThread(void);

#endif /* STAMP_THREAD_H */
