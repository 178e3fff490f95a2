//===- tx_presence.cpp - which threads run a transaction in the pool ------===//

#include "runtime/pool/tx_presence.h"

#include "runtime/base/report.h"

#include <cstdint>
#include <sched.h>

namespace ptm {
namespace pool {

PresenceFlag presence[kMaxPresence + 1];

namespace {
std::atomic<uint8_t> claimed[kMaxPresence + 1];
// Flags ever handed out are below this index: the close scans no further.
std::atomic<uint32_t> high_water{1};
} // namespace

uint32_t claim_presence() {
  for (uint32_t i = 1; i <= kMaxPresence; ++i) {
    uint8_t expected = 0;
    if (claimed[i].load(std::memory_order_relaxed) != 0 ||
        !claimed[i].compare_exchange_strong(expected, 1))
      continue;
    uint32_t h = high_water.load(std::memory_order_relaxed);
    while (h <= i && !high_water.compare_exchange_weak(
                         h, i + 1, std::memory_order_seq_cst))
      ;
    return i;
  }
  fatal("more than %u threads run persistent transactions", kMaxPresence);
}

void release_presence(uint32_t index) {
  if (index == 0)
    return;
  presence[index].inside.store(0, std::memory_order_release);
  claimed[index].store(0, std::memory_order_release);
}

uint32_t threads_in_state(uint8_t state, uint32_t *out, uint32_t max) {
  uint32_t n = high_water.load(std::memory_order_acquire), found = 0;
  for (uint32_t i = 1; i < n && found < max; ++i)
    if (presence[i].inside.load(std::memory_order_acquire) == state)
      out[found++] = i;
  return found;
}

void wait_until_absent() { wait_until_absent(UINT64_MAX); }

bool wait_until_absent(uint64_t rounds) {
  uint32_t n = high_water.load(std::memory_order_seq_cst);
  for (uint32_t i = 1; i < n; ++i)
    while (presence[i].inside.load(std::memory_order_seq_cst)) {
      if (rounds-- == 0)
        return false;
      sched_yield();
    }
  return true;
}

} // namespace pool
} // namespace ptm
