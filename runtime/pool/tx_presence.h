//===- tx_presence.h - threads inside the pool ------------------*- C++ -*-===//
//
// ptm_close waits until no transaction of the process is inside the pool.
// Each thread that runs persistent transactions owns one presence flag for
// its whole life (claimed at its first pool slot, released at its exit):
// 1 while it runs a transaction, 0 otherwise. The flag belongs to the
// thread, not to its pool slot: slot indices are handed out afresh at every
// open, so a thread still working with a slot of a closed pool (one that
// read the old epoch just before the close) and the thread that holds the
// same index in the reopened pool would otherwise share a flag, and the
// first one's "closed, retry" would clear the second one's "inside".
//
// One flag per cache line: threads that enter and leave at every
// transaction do not write a line another thread writes too.
//
// Under strict durability through the persister (durability.h awaited) a
// transaction's first log entry also marks its flag kWriting: the
// persister's group commit waits for such threads (persister.cpp), not for
// threads that only read.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_TX_PRESENCE_H
#define PTM_RUNTIME_POOL_TX_PRESENCE_H

#include <atomic>
#include <cstdint>

namespace ptm {
namespace pool {

// Threads that may hold a presence flag at once (2 MiB of flags, touched
// only as far as threads use them: the thread count is bounded by the
// system, not by the pool's slots).
constexpr uint32_t kMaxPresence = 32768;

struct alignas(64) PresenceFlag {
  std::atomic<uint8_t> inside; // 0, kInside or kWriting
};
constexpr uint8_t kInside = 1, kWriting = 2;

// Index 0 is never handed out: a thread without a flag has index 0.
extern PresenceFlag presence[kMaxPresence + 1];

// A free flag's index (1..kMaxPresence); fatal when every one is taken.
uint32_t claim_presence() __attribute__((cold));
// Gives back the flag of a thread that runs no transaction.
void release_presence(uint32_t index);
// The indices of the threads whose flag is STATE now, up to MAX of them,
// into OUT; returns how many (the persister's group commit).
uint32_t threads_in_state(uint8_t state, uint32_t *out, uint32_t max);
// Waits until no thread is inside (ptm_close, after its fence).
void wait_until_absent();
// The same, giving up after ROUNDS yields of the processor: false then.
bool wait_until_absent(uint64_t rounds);

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_TX_PRESENCE_H
