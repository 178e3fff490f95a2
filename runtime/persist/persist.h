//===- persist.h - the only place that issues clwb and sfence ---*- C++ -*-===//
//
// Every cache-line write-back and store fence of the runtime goes through
// here (DESIGN.md "Persistence primitives"), which is what makes counting,
// latency emulation and crash simulation possible:
//
//   clwb(p)             write back the line holding P (counted: ptm_stats.clwb)
//   stream_line(d, s)   write the 64-byte line S to the line D with
//                       non-temporal stores: D goes to memory without being
//                       read into the cache, durable at the next sfence like
//                       a stored and written-back line (counted as a clwb:
//                       the statistic counts lines written back)
//   flush_range(p, n)   clwb of every line of [p, p+n)
//   LineFlusher         clwb of a run of addresses, a line once (unless
//                       other lines with its slot came between)
//   sfence()            store fence (counted: ptm_stats.sfence)
//   fenced_by_rmw()     a locked instruction just served as the fence (no
//                       instruction; tells the crash simulator)
//
// Instruction: clwb when the CPU has it (cpuid at load), else clflushopt, else
// clflush (persist.cpp picks once; the fast path is one predictable branch).
//
// The file domain (domain.h): a fence after written-back lines also syncs
// the pool file, so what it orders is on the disk before what follows it.
//
// Emulated NVM latency: PTM_NVM_LATENCY_NS=N charges N ns per line written
// back, paid at the next sfence by spinning on the TSC (calibrated at load
// only when N > 0), so the cost lands where real NVM would stall.
//
// eADR (CMake option PTM_EADR=ON, compile-time PTM_EADR=1): caches are in the
// persistence domain, so clwb is a no-op (not issued, not counted); sfence
// stays (it orders the stores that make logs and data durable).
//
// Buffered durability (runtime/pool/durability.h): the pool's address range
// is a private DRAM copy and the file is mapped a second time (the PM view);
// flush_insn is then Shadow and clwb goes to shadow_clwb (shadow.h), which
// copies a line of the thread slots to the PM view and writes that back, and
// leaves the pool's data to the persister.
//
// Crash simulator hooks: built with PTM_PERSIST_HOOKS=1, every flush and
// fence first calls ptm_persist_observe_flush(line) / ptm_persist_observe_
// fence(), defined by the crash simulator (runtime/crash_sim/, linked only
// into the test variants libptm_<NAME>_crashsim; docs/crash_simulator.md);
// under buffered durability, with the PM view's address of what is written
// back there. Off in the normal libraries (no cost).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSIST_H
#define PTM_RUNTIME_PERSIST_H

#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <emmintrin.h>

#ifndef PTM_EADR
#define PTM_EADR 0
#endif
#ifndef PTM_PERSIST_HOOKS
#define PTM_PERSIST_HOOKS 0
#endif

#if PTM_PERSIST_HOOKS
extern "C" void ptm_persist_observe_flush(const void *line);
extern "C" void ptm_persist_observe_fence(void);
extern "C" void ptm_persist_observe_unit(void);
extern "C" void ptm_persist_observe_sync(void);
extern "C" void ptm_persist_observe_sync_pages(const void *addr, size_t n);
extern "C" int ptm_persist_seeded_unflushed_extension(void);
extern "C" int ptm_persist_seeded_unawaited_commit(void);
extern "C" int ptm_persist_seeded_early_reuse(void);
#endif

namespace ptm {
namespace persist {

constexpr size_t kLineSize = 64;

enum class FlushInsn : uint8_t { Clwb, Clflushopt, Clflush, Shadow };

// Chosen at load time (persist.cpp).
extern FlushInsn flush_insn;
// Emulated latency per written-back line, in TSC ticks (0: none).
extern uint64_t latency_ticks_per_line;
// Lines written back by this thread since its last fence (for the latency
// and the file domain's syncs).
extern __thread uint64_t unfenced_lines;
// What a fence does beyond the instruction (0 on the fast path): pay the
// emulated latency, sync the pool file (the file domain, domain.h).
enum : uint8_t { kFenceLatency = 1, kFenceSync = 2 };
extern uint8_t fence_work;
// This thread's fences do not sync the file (domain.h OwnSyncs).
extern __thread bool own_syncs;

// The instruction's name, for messages and `ptm-pool info`.
const char *flush_insn_name();

// A fence's work beyond the instruction (fence_work): spins for the latency
// of the lines written back since the last fence, syncs the pool file when
// there are such lines (domain.h). RMW: the fence was a locked instruction,
// which pays no emulated latency.
void fence_slow(bool rmw) __attribute__((noinline));
// clwb under buffered durability (shadow.cpp).
void shadow_clwb(const void *addr) __attribute__((noinline, cold));

__attribute__((always_inline)) inline void clwb(const void *addr) {
#if PTM_EADR
  if (__builtin_expect(flush_insn == FlushInsn::Shadow, 0))
    shadow_clwb(addr); // (the thread slots' copy still goes to the PM view)
#else
#if PTM_PERSIST_HOOKS
  // (under buffered durability the simulator sees the PM view's line that
  // shadow_clwb writes back, if any)
  if (flush_insn == FlushInsn::Shadow)
    return shadow_clwb(addr);
  ptm_persist_observe_flush(addr);
#endif
  auto *p = static_cast<const volatile char *>(addr);
  if (__builtin_expect(flush_insn == FlushInsn::Clwb, 1))
    asm volatile("clwb %0" : "+m"(*const_cast<volatile char *>(p)));
  else if (flush_insn == FlushInsn::Clflushopt)
    asm volatile("clflushopt %0" : "+m"(*const_cast<volatile char *>(p)));
  else if (flush_insn == FlushInsn::Clflush)
    asm volatile("clflush %0" : "+m"(*const_cast<volatile char *>(p)));
  else
    return shadow_clwb(addr); // (counts what it writes back)
  stat_add(this_thread().stats->clwb);
  ++unfenced_lines;
#endif
}

// N bytes (8, 16, 32 or 64, DST aligned to N) written with non-temporal
// stores: no read for ownership of a line that is not in the cache, and no
// clwb; the next sfence orders them like one. Counts nothing: stream_line
// does, and the persister of buffered durability, writing the PM view
// (runtime/pool/persister.cpp), counts each line once (streamed_line). The
// crash simulator reads DST's line once the stores are issued.
__attribute__((always_inline)) inline void
stream_span(void *dst, const void *src, size_t n) {
#if PTM_EADR
  memcpy(dst, src, n); // (the caches are persistent)
#else
  if (n == 8) {
    long long v;
    memcpy(&v, src, 8);
    _mm_stream_si64(static_cast<long long *>(dst), v);
  } else {
    auto *d = static_cast<__m128i *>(dst);
    const auto *v = static_cast<const __m128i *>(src);
    for (size_t i = 0; i < n / 16; ++i)
      _mm_stream_si128(d + i, _mm_loadu_si128(v + i));
  }
#if PTM_PERSIST_HOOKS
  ptm_persist_observe_flush(dst);
#endif
#endif
}

// A line written by stream_span: counted as one clwb, and one line of the
// emulated latency at the next fence.
__attribute__((always_inline)) inline void streamed_line() {
#if !PTM_EADR
  stat_add(this_thread().stats->clwb);
  ++unfenced_lines;
#endif
}

// The log staging's write of a record line (runtime/persist/log_stage.h):
// DST and SRC 64-byte aligned. Streamed, the line is not read for ownership
// (the log's lines were evicted by the clwb of their last use on CPUs whose
// clwb evicts) and needs no clwb; the next sfence orders it like one.
__attribute__((always_inline)) inline void stream_line(void *dst,
                                                       const void *src) {
#if PTM_EADR
  memcpy(dst, src, kLineSize); // (the caches are persistent)
  if (__builtin_expect(flush_insn == FlushInsn::Shadow, 0))
    shadow_clwb(dst);
#else
  if (__builtin_expect(flush_insn == FlushInsn::Shadow, 0)) {
    memcpy(dst, src, kLineSize);
    return shadow_clwb(dst); // (counts what it writes back)
  }
  stream_span(dst, src, kLineSize);
  streamed_line();
#endif
}

__attribute__((always_inline)) inline void sfence() {
#if PTM_PERSIST_HOOKS
  ptm_persist_observe_fence();
#endif
  asm volatile("sfence" ::: "memory");
  stat_add(this_thread().stats->sfence);
  if (__builtin_expect(fence_work != 0, 0))
    fence_slow(/*rmw=*/false);
}

// The caller has just executed a locked read-modify-write (or mfence) and
// relies on it as the store fence that orders its earlier clwbs (x86 orders
// clwb with locked instructions as with sfence; fence pipelining, paper
// IV-C). Issues and counts nothing; the crash simulator treats it as a fence.
__attribute__((always_inline)) inline void fenced_by_rmw() {
#if PTM_PERSIST_HOOKS
  ptm_persist_observe_fence();
#endif
  if (__builtin_expect(fence_work & kFenceSync, 0))
    fence_slow(/*rmw=*/true);
}

// Outside transactions, the start of a unit of persistence work (a record
// of buffered durability's persister): the crash simulator's mutations count
// its events as they count a transaction attempt's. Nothing otherwise.
__attribute__((always_inline)) inline void begin_unit() {
#if PTM_PERSIST_HOOKS
  ptm_persist_observe_unit();
#endif
}

// The crash simulator's seeded bug PTM_CRASH_MUTATE=unflushed-extension: a
// log extension is linked before its lines are written back (the test
// variants only; false otherwise).
__attribute__((always_inline)) inline bool seeded_unflushed_extension() {
#if PTM_PERSIST_HOOKS
  return ptm_persist_seeded_unflushed_extension() != 0;
#else
  return false;
#endif
}

// The crash simulator's seeded bug PTM_CRASH_MUTATE=unawaited-commit: a
// commit of strict durability through the persister waits for the commit
// before it, not its own (the test variants only; false otherwise).
inline bool seeded_unawaited_commit() {
#if PTM_PERSIST_HOOKS
  return ptm_persist_seeded_unawaited_commit() != 0;
#else
  return false;
#endif
}

// The crash simulator's seeded bug PTM_CRASH_MUTATE=early-reuse: the log
// ring's freed blocks are settled at their commit's end, whatever the
// replay floor (pool/freed_blocks.h; the test variants only).
inline bool seeded_early_reuse() {
#if PTM_PERSIST_HOOKS
  return ptm_persist_seeded_early_reuse() != 0;
#else
  return false;
#endif
}

// clwb of every cache line that [addr, addr + n) touches.
__attribute__((always_inline)) inline void flush_range(const void *addr,
                                                       size_t n) {
  if (n == 0)
    return;
  auto lo = reinterpret_cast<uintptr_t>(addr) & ~(uintptr_t)(kLineSize - 1);
  auto hi = reinterpret_cast<uintptr_t>(addr) + n;
  for (uintptr_t line = lo; line < hi; line += kLineSize)
    clwb(reinterpret_cast<const void *>(line));
}

// clwb of the lines of a run of addresses (a record's entries), each line
// once: an address whose line was flushed last in its slot of a direct-
// mapped table of 8 lines is left out (two chunk entries of one line with
// G = 32, or word entries of one line, cost one clwb). A repeat the table
// has lost is flushed again, which costs a clwb and changes nothing.
class LineFlusher {
  uintptr_t last_[8] = {};

public:
  __attribute__((always_inline)) void flush(const void *p) {
    uintptr_t line = reinterpret_cast<uintptr_t>(p) & ~uintptr_t(kLineSize - 1);
    uintptr_t &slot = last_[(line / kLineSize) & 7];
    if (slot == line)
      return;
    slot = line;
    clwb(p);
  }
};

// flush_range + sfence: [addr, addr + n) is durable when this returns.
inline void persist_range(const void *addr, size_t n) {
  flush_range(addr, n);
  sfence();
}

} // namespace persist
} // namespace ptm

#endif // PTM_RUNTIME_PERSIST_H
