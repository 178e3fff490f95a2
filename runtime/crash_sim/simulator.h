//===- simulator.h - simulated power failures (ADR) -------------*- C++ -*-===//
//
// Built into the test-only `ptm_<NAME>_crashsim` variant of each persistent
// library (compiled with PTM_PERSIST_HOOKS=1; the normal libraries carry
// none of it). Every clwb and sfence of runtime/persist/persist.h is an event:
//
//   clwb(line)   records the line's content now as "in flight" (a snapshot,
//                numbered: a line's snapshots reach NVM in that order)
//   sfence()     makes the calling thread's in-flight lines persistent,
//                unless another thread already made a newer snapshot of
//                the line persistent
//
// The persistent image starts as the pool's content at its first event after
// it is mapped (the last state a clean run left). A crash at event N (just
// before it takes effect) writes a pool file made of the persistent lines
// plus none, all or a seeded random subset of the dirty and in-flight lines
// (crash_sim/image.h), prints what it did and how to reproduce it, and ends
// the process with kCrashExitStatus; the process's other threads are
// stopped before the image is read. Events are counted only while a pool is
// open; settings: crash_sim/config.h and docs/crash_simulator.md. In the
// file domain (persist/domain.h) the model is the page cache's instead: a
// sync of the pool file (an event too) makes the whole file persistent,
// and a crash keeps any subset of the 4 KiB pages written since. Under
// buffered durability the memory modelled is the PM view (the file); the
// DRAM copy at the pool's address is lost at a crash.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_CRASH_SIM_SIMULATOR_H
#define PTM_RUNTIME_CRASH_SIM_SIMULATOR_H

#include <cstddef>
#include <cstdint>

namespace ptm {
namespace crash_sim {

// Exit status of a process the simulator crashed.
constexpr int kCrashExitStatus = 86;

} // namespace crash_sim
} // namespace ptm

extern "C" {
// The persist.h hooks (PTM_PERSIST_HOOKS=1).
void ptm_persist_observe_flush(const void *line);
void ptm_persist_observe_fence(void);
// A sync of the pool file in the file domain (persist/domain.h): the file
// is then what the mapping holds; of its pages that [ADDR, ADDR + N) touches.
void ptm_persist_observe_sync(void);
void ptm_persist_observe_sync_pages(const void *addr, size_t n);
// Persistence events counted so far in this process (for drivers that fork
// instead of reading PTM_CRASH_COUNT's report).
uint64_t ptm_crash_sim_events(void);
// The open pool's heap (heap_probe.cpp): 0 and *BLOCKS = allocated blocks if
// its check passes, else -1 with the problem in WHY.
int ptm_crash_sim_heap(uint64_t *blocks, char *why, size_t n);
}

#endif // PTM_RUNTIME_CRASH_SIM_SIMULATOR_H
