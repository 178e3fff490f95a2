//===- persistent_options.h - the optimizations of a PTM library -*- C++
//-*-===//
//
// The paper's optimizations (Sections IV and V) as compile-time switches of
// the persistent logging layer (persistent_logging.h). A library picks one
// option set:
//
//   NaiveOptions  the p_ libraries: Listing 1 as it is
//   GpOptions     the gp_ libraries (GP model, Section V): last-allocation
//                 tracking (IV-A), fence pipelining for TLRW (IV-C),
//                 deferred flushing for the lazy algorithms (IV-D), and
//                 ours: the sealed commit of the lazy algorithms (one fence
//                 before the write-back instead of two) and the log ring
//                 (that fence is the commit's only one); the hourglass and
//                 quiescence stay
//   IpOptions     the ip_ libraries (IP model): GpOptions + coarse-grained
//                 logging (IV-B) + no per-transaction quiescence
//
// Each optimization of GpOptions/IpOptions can be turned off for an ablation
// build with its CMake option (PTM_OPT_<NAME>=OFF defines PTM_OPT_<NAME>=0;
// see docs/algorithms.md), so that two builds differ in one optimization.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_PERSISTENT_OPTIONS_H
#define PTM_LIBS_PERSISTENT_OPTIONS_H

#ifndef PTM_OPT_LAST_ALLOC
#define PTM_OPT_LAST_ALLOC 1
#endif
#ifndef PTM_OPT_DEFERRED_FLUSH
#define PTM_OPT_DEFERRED_FLUSH 1
#endif
#ifndef PTM_OPT_FENCE_PIPELINE
#define PTM_OPT_FENCE_PIPELINE 1
#endif
#ifndef PTM_OPT_COARSE_LOG
#define PTM_OPT_COARSE_LOG 1
#endif
#ifndef PTM_OPT_SEALED_LOG
#define PTM_OPT_SEALED_LOG 1
#endif
#ifndef PTM_OPT_LOG_RING
#define PTM_OPT_LOG_RING 1
#endif
#ifndef PTM_EADR
#define PTM_EADR 0
#endif
#ifndef PTM_OPT_LOG_STAGE
#define PTM_OPT_LOG_STAGE 1
#endif
#ifndef PTM_OPT_NO_QUIESCE
#define PTM_OPT_NO_QUIESCE 1
#endif
#ifndef PTM_OPT_SKIP_REWRITTEN
#define PTM_OPT_SKIP_REWRITTEN 1
#endif
#ifndef PTM_OPT_SOLO
#define PTM_OPT_SOLO 1
#endif

namespace ptm {

struct NaiveOptions {
  static constexpr bool kLastAlloc = false;     // IV-A
  static constexpr bool kDeferredFlush = false; // IV-D (lazy algorithms)
  static constexpr bool kFencePipeline = false; // IV-C (tlrw)
  static constexpr bool kCoarseLog = false;     // IV-B
  // Lazy algorithms: the commit record and the redo entries behind one fence
  // (docs/algorithms.md, "Sealed commit").
  static constexpr bool kSealedLog = false;
  // Lazy algorithms with deferred flushing and the sealed log: the slot's
  // log as a ring of three records, one fence per commit (runtime/persist/
  // log_ring.h, docs/algorithms.md "Log ring").
  static constexpr bool kLogRing = false;
  static constexpr bool kLogStage = false;
  // The log ring: a commit leaves unflushed the last record's entries that
  // its own record holds again whole (docs/algorithms.md "Rewritten lines").
  static constexpr bool kSkipRewritten = false;
  static constexpr bool kQuiesce = true; // V: IP drops it
  // Ours, orec_lazy: the attempts of a thread that runs alone skip the orecs
  // (runtime/stm/solo_owner.h, docs/algorithms.md "Solo mode"); cgl_lazy:
  // its global lock is taken without a locked instruction
  // (runtime/stm/solo_lock.h).
  static constexpr bool kSolo = false;
  // The allocation model (DESIGN.md): malloc/new inside a transaction take
  // memory from the ordinary heap (GP: a transaction may touch DRAM;
  // ptm_malloc is the way to persistent memory), or, in the IP model, where
  // everything a transaction touches is persistent, from the pool's heap.
  static constexpr bool kPoolMalloc = false;
};

struct GpOptions : NaiveOptions {
  static constexpr bool kLastAlloc = PTM_OPT_LAST_ALLOC;
  static constexpr bool kDeferredFlush = PTM_OPT_DEFERRED_FLUSH;
  static constexpr bool kFencePipeline = PTM_OPT_FENCE_PIPELINE;
  static constexpr bool kSealedLog = PTM_OPT_SEALED_LOG;
  static constexpr bool kLogRing =
      PTM_OPT_LOG_RING && kDeferredFlush && kSealedLog;
  // Ours: redo records built in DRAM and streamed into the slot at commit
  // (runtime/persist/log_stage.h; with eADR the caches are persistent and
  // there is nothing to save).
  static constexpr bool kLogStage = PTM_OPT_LOG_STAGE && !PTM_EADR;
  static constexpr bool kSkipRewritten = PTM_OPT_SKIP_REWRITTEN && kLogRing;
  static constexpr bool kSolo = PTM_OPT_SOLO;
};

struct IpOptions : GpOptions {
  static constexpr bool kPoolMalloc = true;
  static constexpr bool kCoarseLog = PTM_OPT_COARSE_LOG;
  static constexpr bool kQuiesce = !PTM_OPT_NO_QUIESCE;
};

} // namespace ptm

#endif // PTM_LIBS_PERSISTENT_OPTIONS_H
