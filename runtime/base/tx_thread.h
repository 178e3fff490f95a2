//===- tx_thread.h - the per-thread transaction descriptor ------*- C++ -*-===//
//
// One TxThread per thread, in static TLS (`__thread`, initial-exec): the
// barriers reach it with one %fs-relative address and no TLS wrapper call,
// which is why it is constant-initialized and trivially destructible (its
// buffers are released by a pthread key destructor at thread exit).
//
// Algorithm-independent state only: a policy keeps its own per-thread state
// (read sets, redo logs, ...) in its own thread_local next to this one.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_TX_THREAD_H
#define PTM_RUNTIME_TX_THREAD_H

#include "ptm.h"
#include "runtime/base/captured_blocks.h"
#include "runtime/base/grow_buffer.h"
#include "runtime/base/undo_log.h"

#include <csetjmp>
#include <cstddef>
#include <cstdint>

namespace ptm {

// An allocation of the current attempt, or a free deferred to commit; RELEASE
// gives the block back to the heap it came from. SIZE (an allocation): the
// bytes requested, which are all the attempt writes in place without a log
// entry (last-allocation tracking, calloc's zeroing), so all that a commit
// must make durable or log of the block; 0 for a free.
struct AllocRecord {
  void *ptr;
  void (*release)(void *);
  size_t size;
};

// Figures of threads that have not attached yet (never reported).
extern ptm_stats_t unattached_stats;

struct TxThread {
  int depth = 0;        // dynamic nesting depth; 0 outside transactions
  uint32_t attempt = 0; // 1-based attempt of the current transaction
  uint64_t attempts_started = 0; // every attempt of every transaction
  bool irrevocable = false;      // may not abort (ran uninstrumented code)
  bool has_checkpoint = false;   // began through __ptm_tx_checkpoint/_setjmp
  bool attached = false;         // registered in the thread registry
  const char *where = nullptr;   // site of the outermost begin
  const char *irrevocable_why = nullptr; // what made it irrevocable
  // The attempt's private stack is [stack_lo, stack_mark): the frames it
  // creates, dead when it ends. Set at begin: empty unless the mark lies on
  // the thread's own stack, [thread_stack_lo, thread_stack_hi) (its whole
  // reserved range, found by attach_thread).
  const void *stack_lo = nullptr;
  const void *thread_stack_lo = nullptr;
  const void *thread_stack_hi = nullptr;
  const void *stack_mark = nullptr; // stack below the checkpoint frame is dead
                                    // after an abort (see UndoLog)
  jmp_buf checkpoint{};             // outermost context, for longjmp on abort
  jmp_buf scratch{}; // where nested checkpoints save (never resumed)
  UndoLog undo;      // in-place writes of the attempt
  GrowBuffer<AllocRecord> allocs; // allocated by the attempt (freed on abort)
  GrowBuffer<AllocRecord> frees;  // freed by the attempt (done at commit)
  uintptr_t last_alloc = 0;       // the attempt's most recent allocation ...
  size_t last_alloc_size = 0;     // ... and its size (0: none); last-allocation
                                  // tracking (P::kLastAllocTracking) accesses
                                  // it without barriers
  CapturedBlocks captured;        // every allocation of the attempt, ditto
  GrowBuffer<MemRange> kept;      // exception objects thrown by the attempt: an
                                  // undo rollback leaves them as written
  ptm_stats_t *stats = &unattached_stats; // this thread's registry record
};

extern __thread TxThread tls_tx;

// Registers the calling thread in the registry (first transaction only).
void attach_thread(TxThread &tx) __attribute__((noinline));

__attribute__((always_inline)) inline TxThread &this_thread() { return tls_tx; }

// Last-allocation tracking: [addr, addr + n) lies in the attempt's most
// recent allocation (no other transaction can reach it before commit).
__attribute__((always_inline)) inline bool
in_last_alloc(const TxThread &tx, const void *addr, size_t n) {
  uintptr_t off = reinterpret_cast<uintptr_t>(addr) - tx.last_alloc;
  return off < tx.last_alloc_size && n <= tx.last_alloc_size - off;
}

// The attempt allocated and freed nothing (half of a policy's read_only:
// policy_base.h kReadOnlyFastCommit).
__attribute__((always_inline)) inline bool
allocated_nothing(const TxThread &tx) {
  return (tx.frees.size | tx.allocs.size) == 0;
}

// [addr, addr + n) lies in a block the attempt allocated (captured_blocks.h):
// its newest inline, the others by a search when the bounds of them all
// hold the access.
__attribute__((always_inline)) inline bool
in_tx_alloc(const TxThread &tx, const void *addr, size_t n) {
  return in_last_alloc(tx, addr, n) ||
         tx.captured.contains(reinterpret_cast<uintptr_t>(addr), n);
}

} // namespace ptm

#endif // PTM_RUNTIME_TX_THREAD_H
