//===- job_thread.h - a thread that runs one job at a time ------*- C++ -*-===//
//
// A thread of the runtime that runs, for the one thread that owns it, one
// job at a time while the owner goes on: post() hands a job over (the one
// before it waited for), wait() returns once it has run. The buffered
// persister's record writer (runtime/pool/persister.cpp): the record's
// write into the file, its sync and its write-back, whose round trips to the
// storage would otherwise stall the building of the next record.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_BASE_JOB_THREAD_H
#define PTM_RUNTIME_BASE_JOB_THREAD_H

#include <condition_variable>
#include <functional>
#include <mutex>
#include <pthread.h>

namespace ptm {

class JobThread {
public:
  // Starts the thread, named NAME (false: it could not be started; the
  // owner then runs its jobs itself).
  bool start(const char *name);
  // Waits for the job posted last and ends the thread.
  void stop();
  bool running() const { return started; }
  // Runs JOB in the thread; the job posted before must have been waited for.
  void post(std::function<void()> job);
  // Returns once the job posted last has run (at once if none).
  void wait();

private:
  static void *main(void *self);
  void loop();

  pthread_t thread{};
  bool started = false;
  std::mutex m;
  std::condition_variable cv;
  std::function<void()> job;
  bool pending = false; // a job posted and not yet run
  bool stopping = false;
};

} // namespace ptm

#endif // PTM_RUNTIME_BASE_JOB_THREAD_H
