//===- job_thread.cpp - a thread that runs one job at a time --------------===//

#include "runtime/base/job_thread.h"

#include <utility>

namespace ptm {

bool JobThread::start(const char *name) {
  pending = stopping = false;
  if (pthread_create(&thread, nullptr, &JobThread::main, this) != 0)
    return false;
  pthread_setname_np(thread, name);
  started = true;
  return true;
}

void JobThread::stop() {
  if (!started)
    return;
  {
    std::lock_guard<std::mutex> lock(m);
    stopping = true;
  }
  cv.notify_all();
  pthread_join(thread, nullptr);
  started = false;
}

void JobThread::post(std::function<void()> next) {
  {
    std::lock_guard<std::mutex> lock(m);
    job = std::move(next);
    pending = true;
  }
  cv.notify_all();
}

void JobThread::wait() {
  std::unique_lock<std::mutex> lock(m);
  cv.wait(lock, [&] { return !pending; });
}

void *JobThread::main(void *self) {
  static_cast<JobThread *>(self)->loop();
  return nullptr;
}

void JobThread::loop() {
  std::unique_lock<std::mutex> lock(m);
  for (;;) {
    cv.wait(lock, [&] { return pending || stopping; });
    if (!pending)
      return; // (stopping, every job run)
    std::function<void()> run = std::move(job);
    lock.unlock();
    run();
    lock.lock();
    pending = false;
    cv.notify_all();
  }
}

} // namespace ptm
