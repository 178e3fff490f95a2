//===- events.h - what a policy's on_event hook is told ---------*- C++ -*-===//
//
// The ABI glue reports every ABI call and every bookkeeping step to the
// policy's on_event(TxThread &, Event, uintptr_t arg) hook. Production
// policies inherit the empty hook from PolicyBase (it compiles to nothing);
// the test runtime counts them. Barrier events (reads, writes, memory
// intrinsics, libc calls, allocation calls) are also the points where the test
// runtime may inject an abort (inject_abort).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_EVENTS_H
#define PTM_RUNTIME_EVENTS_H

namespace ptm {

enum class Event : unsigned {
  // Transaction boundaries.
  Begin,          // outermost __ptm_tx_begin (one per attempt)
  NestedBegin,    // __ptm_tx_begin inside a transaction
  Commit,         // outermost commit
  Restart,        // ptm_restart
  Abort,          // an attempt was rolled back to re-execute (any cause)
  InjectedAbort,  // ... because the policy asked for it (inject_abort)
  InjectedRetry,  // ... a commit the test runtime failed on purpose
  UnwindRollback, // an exception left the outermost region: rolled back
  UnwindCommit,   // ... an irrevocable one: its effects are kept
  RegionBegin,    // __ptm_region_begin (code compiled without the plugin)
  RegionEnd,      // __ptm_region_end
  Irrevocable,    // the transaction became irrevocable

  // Barriers (abort injection points).
  Read1,
  Read2,
  Read4,
  Read8,
  ReadN,
  Write1,
  Write2,
  Write4,
  Write8,
  WriteN,
  Memcpy,
  Memmove,
  Memset,
  LibcMemchr,
  LibcMemcmp,
  LibcStrlen,
  LibcStrnlen,
  LibcStrcmp,
  LibcStrncmp,
  LibcStrcpy,
  LibcStrncpy,
  LibcStpcpy,
  LibcStrcat,
  LibcStrncat,
  LibcStrchr,
  LibcStrrchr,
  LibcStrstr,
  LibcStrspn,
  LibcStrcspn,
  LibcStrpbrk,
  LibcStrdup,
  LibcStrndup,
  LibcMemrchr,
  LibcStrtokR,
  LibcRandR,
  LibcStrto, // strto*, ato* and their glibc aliases
  LibcQsort, // qsort, qsort_r
  LibcBsearch,
  LibcPrintf, // snprintf, sprintf, their v and _chk forms
  LibcMath,   // math with a pointer result (modf, frexp, ...)
  CxxTree,    // libstdc++'s red-black tree node functions
  CxxList,    // libstdc++'s list node functions
  CxxHash,    // libstdc++'s rehash policy, _Hash_bytes, _Fnv_hash_bytes
  AllocCall,  // any allocation entry point inside a transaction
  FreeCall,   // any free/delete entry point inside a transaction

  // Allocation bookkeeping (arg = the block).
  AllocRecorded,   // allocated by the attempt
  FreeDeferred,    // free deferred to commit
  AllocRolledBack, // freed because the attempt aborted
  FreeApplied,     // deferred free done at commit

  // Clones and unsupported constructs.
  CloneRegistered, // arg = pairs in the __ptm_register_clones call
  CloneLookup,     // arg = the function
  CloneMiss,       // arg = the function
  Unsupported,     // arg = enum ptm_unsupported_kind

  Count
};

constexpr bool is_barrier(Event e) {
  return e >= Event::Read1 && e <= Event::FreeCall;
}
constexpr bool is_libc(Event e) {
  return e >= Event::LibcMemchr && e <= Event::CxxHash;
}

} // namespace ptm

#endif // PTM_RUNTIME_EVENTS_H
