//===- deferred_free.cpp - ordinary-heap frees after the readers ----------===//

#include "runtime/pool/deferred_free.h"

#include "runtime/base/grow_buffer.h"
#include "runtime/pool/thread_slot.h"
#include "runtime/stm/reuse_epoch.h"

#include <cstdint>
#include <cstdlib>

namespace ptm {
namespace pool {

namespace {

struct Deferred {
  void *ptr;
  uint64_t stamp;
};

// Oldest first: [head, size) are waiting (stamps grow along the list).
__thread GrowBuffer<Deferred> waiting;
__thread size_t head;

// Past this many waiting blocks a thread waits for the oldest ones.
constexpr size_t kMaxWaiting = 4096;

} // namespace

void free_after_readers(void *ptr) {
  if (head < waiting.size)
    free_passed_blocks(/*wait=*/false);
  waiting.push_back(Deferred{ptr, ReuseEpoch::stamp()});
  tls_slot.heap_work = true;
  if (waiting.size - head > kMaxWaiting)
    free_passed_blocks(/*wait=*/true);
}

void free_passed_blocks(bool wait) {
  while (head < waiting.size) {
    Deferred &d = waiting[head];
    if (wait)
      ReuseEpoch::wait(d.stamp);
    else if (!ReuseEpoch::passed(d.stamp))
      break;
    free(d.ptr);
    ++head;
  }
  if (head == waiting.size) {
    waiting.clear();
    head = 0;
  }
  if (wait)
    waiting.release();
  else if (head < waiting.size)
    tls_slot.heap_work = true; // the next attempt's end looks again
}

} // namespace pool
} // namespace ptm
