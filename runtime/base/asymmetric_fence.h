//===- asymmetric_fence.h - a fence split between a fast and a rare side
//-*-===//
//
// Two threads that each store a flag and then load the other's (Dekker) need
// a StoreLoad fence on both sides: on x86 a locked instruction (~20 cycles)
// each time. When one side runs on every transaction and the other almost
// never (ptm_close waiting for the transactions in flight), the rare side can
// pay for both: fence_light() on the frequent side is a compiler barrier,
// and fence_heavy() on the rare side makes every running thread of the
// process execute a full memory barrier (Linux membarrier, private
// expedited), so that each frequent-side thread either sees the rare side's
// store or has its own store seen by the rare side's later load.
//
// Where membarrier is missing (old kernels, seccomp) or PTM_MEMBARRIER=off,
// both sides fall back to a seq_cst fence. asymmetric_fence_init() registers
// the process (once; before any thread relies on the light side) and says
// which mode runs.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_BASE_ASYMMETRIC_FENCE_H
#define PTM_RUNTIME_BASE_ASYMMETRIC_FENCE_H

#include <atomic>

namespace ptm {

// True once the process is registered for private expedited membarrier.
extern std::atomic<bool> membarrier_ready;

// Registers the process (first call only). Returns membarrier_ready.
bool asymmetric_fence_init();

__attribute__((always_inline)) inline void fence_light() {
  if (__builtin_expect(membarrier_ready.load(std::memory_order_relaxed), 1))
    std::atomic_signal_fence(std::memory_order_seq_cst);
  else
    std::atomic_thread_fence(std::memory_order_seq_cst);
}

// The rare side: a barrier on every running thread of the process (or a
// seq_cst fence where fence_light is one too).
void fence_heavy();

} // namespace ptm

#endif // PTM_RUNTIME_BASE_ASYMMETRIC_FENCE_H
