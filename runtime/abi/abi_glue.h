//===- abi_glue.h - the whole ABI from one algorithm policy -----*- C++ -*-===//
//
// Runtime<P> implements every entry point of ptm_abi.h and the transaction
// part of ptm.h on top of an algorithm policy P (see policy_base.h), and
// PTM_DEFINE_RUNTIME(P), used once per library, defines the extern "C"
// symbols. Fast paths (barriers, checkpoint, clone lookup hits) are small and
// inline into user code under LTO; everything else is out of line and cold.
//
// Abort path (ptm_restart, an injected abort):
//   P::rollback (undo memory, release) -> free the attempt's allocations and
//   drop its deferred frees -> aborts++ -> depth = 0 -> longjmp(checkpoint, 1);
//   the instrumented code then calls __ptm_tx_begin again. A commit that fails
//   validation does the same rollback but returns 1 from __ptm_tx_commit
//   instead of longjmp (the plugin's retry edge).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_GLUE_H
#define PTM_RUNTIME_ABI_GLUE_H

#include "ptm.h"
#include "runtime/abi/clone_table.h"
#include "runtime/abi/describe.h"
#include "runtime/abi/tx_alloc.h"
#include "runtime/abi/tx_libc.h"
#include "runtime/base/events.h"
#include "runtime/base/policy_base.h"
#include "runtime/base/report.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"

#include <cerrno>
#include <csetjmp>
#include <cstdint>
#include <cstring>
#include <cxxabi.h>
#include <new>

#define PTM_INLINE __attribute__((always_inline)) inline
#define PTM_SLOW __attribute__((noinline, cold))

namespace ptm {

template <class P> struct Runtime {
  // ---- Transaction boundaries ---------------------------------------------

  static PTM_INLINE void *checkpoint() {
    TxThread &tx = this_thread();
    return tx.depth == 0 ? static_cast<void *>(tx.checkpoint)
                         : static_cast<void *>(tx.scratch);
  }

  // STACK_MARK: the caller's stack pointer; deeper frames are dead after an
  // abort and the undo log does not restore into them.
  static void begin(const char *where, const void *stack_mark) {
    TxThread &tx = this_thread();
    if (tx.depth++ > 0) {
      P::on_event(tx, Event::NestedBegin, 0);
      return;
    }
    start(tx, where, stack_mark, /*irrevocable=*/false);
  }

  static PTM_SLOW void start(TxThread &tx, const char *where,
                             const void *stack_mark, bool irrevocable) {
    if (!tx.attached)
      attach_thread(tx);
    tx.where = where;
    tx.stack_mark = stack_mark;
    tx.has_checkpoint = !irrevocable;
    tx.irrevocable = irrevocable;
    tx.irrevocable_why = irrevocable ? where : nullptr;
    ++tx.attempt;
    tx.kept.clear();
    tx.last_alloc_size = 0;
    P::on_event(tx, Event::Begin, 0);
    if (irrevocable)
      P::begin_irrevocable(tx);
    else
      P::begin(tx);
  }

  // 0: committed (or, nested, left); 1: the attempt was rolled back at commit
  // time and must re-execute (the caller branches back to its checkpoint).
  static PTM_INLINE int commit() {
    TxThread &tx = this_thread();
    if (__builtin_expect(tx.depth <= 0, 0))
      fatal("transaction commit outside a transaction (unbalanced "
            "PTM_BEGIN/PTM_END?)");
    if (--tx.depth > 0)
      return 0;
    return finish(tx);
  }

  static PTM_SLOW int finish(TxThread &tx) {
    if (!P::commit(tx)) {
      // Validation failed: the policy left the attempt as it was running.
      if (tx.irrevocable)
        fatal("library '%s' failed to commit an irrevocable transaction",
              PTM_LIBNAME);
      P::on_event(tx, Event::Abort, 0);
      rollback_attempt(tx);
      count_abort(tx, AbortCause::Validation);
      return 1;
    }
    commit_allocations<P>(tx);
    tx.kept.clear();
    tx.attempt = 0;
    tx.irrevocable = false;
    stat_add(tx.stats->commits);
    P::on_event(tx, Event::Commit, 0);
    return 0;
  }

  // Undoes everything the attempt did; the thread is then outside any
  // transaction (depth 0).
  // The object of a C++ exception thrown inside a transaction: written in
  // place and kept by a rollback, so that the exception leaving the
  // transaction carries what was thrown.
  static void *allocate_exception(size_t n) noexcept {
    void *p = __cxxabiv1::__cxa_allocate_exception(n);
    TxThread &tx = this_thread();
    if (tx.depth > 0) {
      auto lo = reinterpret_cast<uintptr_t>(p);
      tx.kept.push_back(MemRange{lo, lo + n});
    }
    return p;
  }

  static void rollback_attempt(TxThread &tx) {
    // Inside the attempt while it is undone, also when commit failed or
    // aborted (commit runs at depth 0): the heap must see that releasing
    // the attempt's allocations undoes them, and not free them for real in
    // a transaction of their own (PoolHeap::release).
    tx.depth = 1;
    P::rollback(tx);
    rollback_allocations<P>(tx);
    tx.kept.clear();
    stat_add(tx.stats->aborts);
    tx.depth = 0;
  }

  [[noreturn]] static PTM_SLOW void abort(TxThread &tx) {
    if (tx.irrevocable)
      fatal("transaction begun at %s cannot abort: it became irrevocable at "
            "%s",
            tx.where ? tx.where : "?",
            tx.irrevocable_why ? tx.irrevocable_why : "?");
    if (!tx.has_checkpoint)
      fatal("transaction begun at %s cannot abort: it has no checkpoint",
            tx.where ? tx.where : "?");
    P::on_event(tx, Event::Abort, 0);
    rollback_attempt(tx);
    longjmp(tx.checkpoint, 1);
  }

  [[noreturn]] static PTM_SLOW void restart() {
    TxThread &tx = this_thread();
    if (tx.depth <= 0)
      fatal("ptm_restart called outside a transaction");
    if (tx.irrevocable)
      fatal("ptm_restart in the transaction begun at %s, which cannot be "
            "re-executed: it is irrevocable since %s",
            tx.where ? tx.where : "?",
            tx.irrevocable_why ? tx.irrevocable_why : "?");
    P::on_event(tx, Event::Restart, 0);
    count_abort(tx, AbortCause::Restart);
    abort(tx);
  }

  // A policy found a conflict (policy_base.h: tx_conflict).
  [[noreturn]] static PTM_SLOW void conflict(TxThread &tx, AbortCause why) {
    count_abort(tx, why);
    abort(tx);
  }

  static void count_abort(TxThread &tx, AbortCause why) {
    switch (why) {
    case AbortCause::ReadConflict:
      stat_add(tx.stats->aborts_read);
      break;
    case AbortCause::WriteConflict:
      stat_add(tx.stats->aborts_write);
      break;
    case AbortCause::Validation:
      stat_add(tx.stats->aborts_validation);
      break;
    case AbortCause::Restart:
      stat_add(tx.stats->aborts_restart);
      break;
    case AbortCause::ReuseWait:
      stat_add(tx.stats->reuse_waits);
      break;
    }
  }

  [[noreturn]] static PTM_SLOW void injected_abort(TxThread &tx) {
    P::on_event(tx, Event::InjectedAbort, 0);
    abort(tx);
  }

  // ---- Irrevocability -----------------------------------------------------

  // Makes the running transaction irrevocable because of WHAT at WHERE (a
  // construct of KIND that cannot be instrumented), after a once-per-site
  // warning; fatal with PTM_UNSUPPORTED=error or if P cannot serialize.
  static PTM_SLOW void run_uninstrumented(TxThread &tx, int kind,
                                          const char *what, const char *where,
                                          const void *site_detail) {
    const char *site = where ? where : "?";
    if (unsupported_is_fatal())
      fatal("%s: %s (%s) cannot run inside a transaction "
            "(PTM_UNSUPPORTED=error)",
            site, what, unsupported_kind_name(kind));
    if (tx.depth > 0 && !tx.irrevocable) {
      if (!P::become_irrevocable(tx))
        fatal("%s: %s (%s) cannot run inside a transaction of library '%s'",
              site, what, unsupported_kind_name(kind), PTM_LIBNAME);
      tx.irrevocable = true;
      tx.irrevocable_why = where;
      P::on_event(tx, Event::Irrevocable, 0);
    }
    if (first_time_at(site, site_detail))
      warning("%s: %s (%s) has no transactional version: it runs "
              "uninstrumented and the transaction becomes irrevocable",
              site, what, unsupported_kind_name(kind));
  }

  static void unsupported(int kind, const char *what, const char *where) {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::Unsupported, static_cast<uintptr_t>(kind));
    run_uninstrumented(tx, kind, what ? what : "construct", where, what);
  }

  // ---- Clones ---------------------------------------------------------------

  static PTM_INLINE void *clone_lookup(const void *fn, const char *where) {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::CloneLookup, reinterpret_cast<uintptr_t>(fn));
    if (const void *clone = find_clone(fn))
      return const_cast<void *>(clone);
    return clone_miss(tx, fn, where);
  }

  static PTM_SLOW void *clone_miss(TxThread &tx, const void *fn,
                                   const char *where) {
    P::on_event(tx, Event::CloneMiss, reinterpret_cast<uintptr_t>(fn));
    if (!fn)
      fatal("%s: call through a null function pointer in a transaction",
            where ? where : "?");
    char name[256];
    char what[300];
    snprintf(what, sizeof what, "call of %s",
             describe_function(fn, name, sizeof name));
    run_uninstrumented(tx, PTM_UNSUPPORTED_CALL, what, where, fn);
    return const_cast<void *>(fn);
  }

  static void register_clones(const ptm_clone_entry_t *table, size_t n) {
    ptm::register_clones(table, n);
    P::on_event(this_thread(), Event::CloneRegistered, n);
  }

  // ---- Region markers (code compiled without the plugin) --------------------

  static void region_begin() {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::RegionBegin, 0);
    static const char kWhere[] = "PTM_BEGIN compiled without the plugin";
    if (tx.depth++ > 0) {
      // Uninstrumented code inside a transaction: it cannot be undone.
      if (!tx.irrevocable) {
        if (!P::become_irrevocable(tx))
          fatal("%s inside a transaction of library '%s'", kWhere, PTM_LIBNAME);
        tx.irrevocable = true;
        tx.irrevocable_why = kWhere;
        P::on_event(tx, Event::Irrevocable, 0);
      }
      return;
    }
    start(tx, kWhere, nullptr, /*irrevocable=*/true);
  }

  static void region_end() {
    TxThread &tx = this_thread();
    P::on_event(tx, Event::RegionEnd, 0);
    if (tx.depth <= 0)
      fatal("PTM_END without a matching PTM_BEGIN");
    commit();
  }

  // An exception leaves a region that began at depth D.
  static void region_unwind(int d) noexcept {
    TxThread &tx = this_thread();
    if (d < 0)
      d = 0;
    if (tx.depth <= d)
      return; // normal exit: PTM_END already closed the region
    if (d > 0) {
      tx.depth = d;
      return;
    }
    // Roll back what the transaction did through barriers, also when it
    // became irrevocable (the exception must not publish half a transaction);
    // only the effects of the uninstrumented code it ran cannot be undone.
    tx.irrevocable = false;
    P::on_event(tx, Event::UnwindRollback, 0);
    rollback_attempt(tx);
    tx.attempt = 0;
  }

  // ---- Barriers
  // ---------------------------------------------------------------

  template <Event E> static PTM_INLINE void barrier(TxThread &tx) {
    P::on_event(tx, E, 0);
    if (__builtin_expect(P::inject_abort(tx), 0))
      injected_abort(tx);
  }

  // Last-allocation tracking: [addr, addr + n) lies in the attempt's most
  // recent allocation (no other transaction can reach it before commit).
  static PTM_INLINE bool in_last_alloc(const TxThread &tx, const void *addr,
                                       size_t n) {
    uintptr_t off = reinterpret_cast<uintptr_t>(addr) - tx.last_alloc;
    return off < tx.last_alloc_size && n <= tx.last_alloc_size - off;
  }

  template <class T, Event E> static PTM_INLINE T read(const void *addr) {
    TxThread &tx = this_thread();
    barrier<E>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->reads);
    if constexpr (P::kLastAllocTracking)
      if (in_last_alloc(tx, addr, sizeof(T))) {
        T value;
        memcpy(&value, addr, sizeof value);
        return value;
      }
    return P::template read<T>(tx, static_cast<const T *>(addr));
  }

  template <class T, Event E> static PTM_INLINE void write(void *addr, T val) {
    TxThread &tx = this_thread();
    barrier<E>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->writes);
    if constexpr (P::kLastAllocTracking)
      if (in_last_alloc(tx, addr, sizeof(T)))
        return (void)memcpy(addr, &val, sizeof val);
    P::template write<T>(tx, static_cast<T *>(addr), val);
  }

  static void read_n(void *dst, const void *addr, size_t n) {
    TxThread &tx = this_thread();
    barrier<Event::ReadN>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->reads);
    if constexpr (P::kLastAllocTracking)
      if (in_last_alloc(tx, addr, n))
        return (void)memcpy(dst, addr, n);
    P::read_bytes(tx, dst, addr, n);
  }

  static void write_n(void *addr, const void *src, size_t n) {
    TxThread &tx = this_thread();
    barrier<Event::WriteN>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->writes);
    store_bytes(tx, addr, src, n);
  }

  // Every multi-byte write of the glue (write_n, mem*, libc). With
  // last-allocation tracking, the bytes inside the attempt's last allocation
  // are stored in place and only the rest goes through the policy: reads
  // there are plain (read, read_n), so no byte of it may sit in a redo log.
  static void store_bytes(TxThread &tx, void *dst, const void *src, size_t n) {
    if constexpr (P::kLastAllocTracking) {
      auto lo = reinterpret_cast<uintptr_t>(dst);
      uintptr_t hi = lo + n;
      uintptr_t alo = tx.last_alloc, ahi = alo + tx.last_alloc_size;
      if (tx.last_alloc_size != 0 && lo < ahi && alo < hi) {
        uintptr_t ilo = lo > alo ? lo : alo, ihi = hi < ahi ? hi : ahi;
        auto *s = static_cast<const char *>(src);
        if (lo < ilo)
          P::write_bytes(tx, dst, s, ilo - lo);
        memmove(reinterpret_cast<void *>(ilo), s + (ilo - lo), ihi - ilo);
        if (ihi < hi)
          P::write_bytes(tx, reinterpret_cast<void *>(ihi), s + (ihi - lo),
                         hi - ihi);
        return;
      }
    }
    P::write_bytes(tx, dst, src, n);
  }

  // ---- Memory intrinsics (both sides transactional)
  // ---------------------------

  // Copies through a private buffer, in the direction that is safe for
  // overlapping ranges.
  static void move_bytes(TxThread &tx, char *dst, const char *src, size_t n) {
    char buffer[256];
    if (dst <= src) {
      for (size_t done = 0; done < n; done += sizeof buffer) {
        size_t chunk = n - done < sizeof buffer ? n - done : sizeof buffer;
        P::read_bytes(tx, buffer, src + done, chunk);
        store_bytes(tx, dst + done, buffer, chunk);
      }
    } else {
      for (size_t left = n; left > 0;) {
        size_t chunk = left < sizeof buffer ? left : sizeof buffer;
        left -= chunk;
        P::read_bytes(tx, buffer, src + left, chunk);
        store_bytes(tx, dst + left, buffer, chunk);
      }
    }
  }

  static void count_copy(TxThread &tx) {
    if constexpr (P::kCountAccesses) {
      stat_add(tx.stats->reads);
      stat_add(tx.stats->writes);
    }
  }

  static void memcpy_tm(void *dst, const void *src, size_t n) {
    TxThread &tx = this_thread();
    barrier<Event::Memcpy>(tx);
    count_copy(tx);
    if constexpr (P::kReadsInPlace)
      store_bytes(tx, dst, src, n);
    else
      move_bytes(tx, static_cast<char *>(dst), static_cast<const char *>(src),
                 n);
  }

  static void memmove_tm(void *dst, const void *src, size_t n) {
    TxThread &tx = this_thread();
    barrier<Event::Memmove>(tx);
    count_copy(tx);
    auto *d = static_cast<char *>(dst);
    auto *s = static_cast<const char *>(src);
    if (P::kReadsInPlace && (d + n <= s || s + n <= d))
      store_bytes(tx, d, s, n);
    else
      move_bytes(tx, d, s, n);
  }

  static void memset_tm(void *dst, int c, size_t n) {
    TxThread &tx = this_thread();
    barrier<Event::Memset>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->writes);
    char buffer[256];
    memset(buffer, c, n < sizeof buffer ? n : sizeof buffer);
    auto *d = static_cast<char *>(dst);
    for (size_t done = 0; done < n; done += sizeof buffer) {
      size_t chunk = n - done < sizeof buffer ? n - done : sizeof buffer;
      store_bytes(tx, d + done, buffer, chunk);
    }
  }

  // ---- libc
  // ---------------------------------------------------------------------

  // What TxLibc reads and writes through.
  struct Access {
    static constexpr bool kPlainReads = P::kReadsInPlace;
    static PTM_INLINE uint8_t load8(const void *p) {
      return P::template read<uint8_t>(this_thread(),
                                       static_cast<const uint8_t *>(p));
    }
    static PTM_INLINE uint64_t load64(const void *p) {
      return P::template read<uint64_t>(this_thread(),
                                        static_cast<const uint64_t *>(p));
    }
    static void read_bytes(void *priv, const void *tm, size_t n) {
      P::read_bytes(this_thread(), priv, tm, n);
    }
    static void write_bytes(void *tm, const void *priv, size_t n) {
      store_bytes(this_thread(), tm, priv, n);
    }
    static void *allocate(size_t n) {
      return tx_allocate<P, typename P::TxHeap>(this_thread(), n, 0);
    }
  };
  using Libc = TxLibc<Access>;

  // ---- Allocation
  // ---------------------------------------------------------------

  template <class Heap> static void *alloc(size_t size, size_t align) {
    TxThread &tx = this_thread();
    barrier<Event::AllocCall>(tx);
    return tx_allocate<P, Heap>(tx, size, align);
  }

  template <class Heap> static void *alloc_zeroed(size_t nmemb, size_t size) {
    size_t bytes;
    if (__builtin_mul_overflow(nmemb, size, &bytes)) {
      errno = ENOMEM;
      return nullptr;
    }
    void *ptr = alloc<Heap>(bytes, 0);
    if (ptr)
      memset(ptr, 0, bytes); // fresh: private to the transaction
    return ptr;
  }

  template <class Heap> static void release(void *ptr) {
    TxThread &tx = this_thread();
    barrier<Event::FreeCall>(tx);
    tx_release<P, Heap>(tx, ptr);
  }

  static void *realloc_tm(void *ptr, size_t size) {
    using Heap = typename P::TxHeap;
    if (!ptr)
      return alloc<Heap>(size, 0);
    if (size == 0) {
      release<Heap>(ptr);
      return nullptr;
    }
    void *fresh = alloc<Heap>(size, 0);
    if (!fresh)
      return nullptr; // the old block is left as it was
    size_t old_size = Heap::usable_size(ptr);
    P::read_bytes(this_thread(), fresh, ptr, old_size < size ? old_size : size);
    tx_release<P, Heap>(this_thread(), ptr);
    return fresh;
  }

  static int posix_memalign_tm(void **memptr, size_t align, size_t size) {
    if (align < sizeof(void *) || (align & (align - 1)))
      return EINVAL;
    void *ptr = alloc<typename P::TxHeap>(size, align);
    if (!ptr)
      return ENOMEM;
    TxThread &tx = this_thread();
    P::template write<uintptr_t>(tx, reinterpret_cast<uintptr_t *>(memptr),
                                 reinterpret_cast<uintptr_t>(ptr));
    return 0;
  }

  static void *new_tm(size_t size, size_t align) {
    void *ptr = alloc<typename P::TxHeap>(size ? size : 1, align);
    if (!ptr)
      throw std::bad_alloc();
    return ptr;
  }

  // ---- ptm_atomic
  // -----------------------------------------------------------------

  struct AtomicGuard {
    int depth;
    ~AtomicGuard() { region_unwind(depth); }
  };

  static void atomic(void (*fn)(void *), void *arg);
};

// ptm_atomic: run FN(ARG) through its clone as a transaction whose checkpoint
// is in this frame.
template <class P> void Runtime<P>::atomic(void (*fn)(void *), void *arg) {
  TxThread &tx = this_thread();
  AtomicGuard guard{tx.depth};
  do {
    void *buf = checkpoint();
    _setjmp(static_cast<__jmp_buf_tag *>(buf));
    begin("ptm_atomic", __builtin_frame_address(0));
    auto *clone = reinterpret_cast<void (*)(void *)>(
        clone_lookup(reinterpret_cast<const void *>(fn), "ptm_atomic"));
    clone(arg);
  } while (commit() != 0);
}

template <class P>
[[noreturn]] PTM_SLOW void tx_conflict(TxThread &tx, AbortCause why) {
  Runtime<P>::conflict(tx, why);
}

} // namespace ptm

#ifndef PTM_LIBNAME
#error "PTM_LIBNAME names the library (set by ptm_add_runtime_library)"
#endif

// Defines every symbol of ptm_abi.h and the transaction API of ptm.h from
// policy POLICY. Use once per library.
#define PTM_DEFINE_RUNTIME(POLICY)                                             \
  using PtmRuntime = ::ptm::Runtime<POLICY>;                                   \
  using PtmEvent = ::ptm::Event;                                               \
  using PtmTxHeap = POLICY::TxHeap;                                            \
  using PtmPool = POLICY::Pool;                                                \
  extern "C" {                                                                 \
  const char *ptm_algorithm(void) { return PTM_LIBNAME; }                      \
  int ptm_in_transaction(void) { return ::ptm::this_thread().depth > 0; }      \
  void ptm_restart(void) { PtmRuntime::restart(); }                            \
  void ptm_atomic(void (*fn)(void *), void *arg) {                             \
    PtmRuntime::atomic(fn, arg);                                               \
  }                                                                            \
  void __ptm_region_begin(void) noexcept { PtmRuntime::region_begin(); }       \
  void __ptm_region_end(void) noexcept { PtmRuntime::region_end(); }           \
  int __ptm_region_depth(void) noexcept { return ::ptm::this_thread().depth; } \
  void __ptm_region_unwind(int d) noexcept { PtmRuntime::region_unwind(d); }   \
  void *__ptm_tx_checkpoint(void) { return PtmRuntime::checkpoint(); }         \
  __attribute__((noinline)) void __ptm_tx_begin(const char *where) {           \
    PtmRuntime::begin(where, __builtin_dwarf_cfa());                           \
  }                                                                            \
  int __ptm_tx_commit(void) { return PtmRuntime::commit(); }                   \
  uint8_t __ptm_read_1(const void *a) {                                        \
    return PtmRuntime::read<uint8_t, PtmEvent::Read1>(a);                      \
  }                                                                            \
  uint16_t __ptm_read_2(const void *a) {                                       \
    return PtmRuntime::read<uint16_t, PtmEvent::Read2>(a);                     \
  }                                                                            \
  uint32_t __ptm_read_4(const void *a) {                                       \
    return PtmRuntime::read<uint32_t, PtmEvent::Read4>(a);                     \
  }                                                                            \
  uint64_t __ptm_read_8(const void *a) {                                       \
    return PtmRuntime::read<uint64_t, PtmEvent::Read8>(a);                     \
  }                                                                            \
  void __ptm_write_1(void *a, uint8_t v) {                                     \
    PtmRuntime::write<uint8_t, PtmEvent::Write1>(a, v);                        \
  }                                                                            \
  void __ptm_write_2(void *a, uint16_t v) {                                    \
    PtmRuntime::write<uint16_t, PtmEvent::Write2>(a, v);                       \
  }                                                                            \
  void __ptm_write_4(void *a, uint32_t v) {                                    \
    PtmRuntime::write<uint32_t, PtmEvent::Write4>(a, v);                       \
  }                                                                            \
  void __ptm_write_8(void *a, uint64_t v) {                                    \
    PtmRuntime::write<uint64_t, PtmEvent::Write8>(a, v);                       \
  }                                                                            \
  void __ptm_read_n(void *d, const void *a, size_t n) {                        \
    PtmRuntime::read_n(d, a, n);                                               \
  }                                                                            \
  void __ptm_write_n(void *a, const void *s, size_t n) {                       \
    PtmRuntime::write_n(a, s, n);                                              \
  }                                                                            \
  void __ptm_memcpy(void *d, const void *s, size_t n) {                        \
    PtmRuntime::memcpy_tm(d, s, n);                                            \
  }                                                                            \
  void __ptm_memmove(void *d, const void *s, size_t n) {                       \
    PtmRuntime::memmove_tm(d, s, n);                                           \
  }                                                                            \
  void __ptm_memset(void *d, int c, size_t n) {                                \
    PtmRuntime::memset_tm(d, c, n);                                            \
  }                                                                            \
  PTM_DEFINE_LIBC_                                                             \
  PTM_DEFINE_ALLOC_                                                            \
  void __ptm_register_clones(const ptm_clone_entry_t *t, size_t n) {           \
    PtmRuntime::register_clones(t, n);                                         \
  }                                                                            \
  void *__ptm_clone_lookup(const void *fn, const char *where) {                \
    return PtmRuntime::clone_lookup(fn, where);                                \
  }                                                                            \
  void __ptm_unsupported(int kind, const char *what, const char *where) {      \
    PtmRuntime::unsupported(kind, what, where);                                \
  }                                                                            \
  PTM_DEFINE_POOL_                                                             \
  } /* extern "C" */

// (pieces of PTM_DEFINE_RUNTIME, expanded inside its extern "C" block)
#define PTM_LIBC_(EVENT, RET, NAME, PARAMS, ARGS)                              \
  RET __ptm_##NAME PARAMS {                                                    \
    PtmRuntime::barrier<PtmEvent::EVENT>(::ptm::this_thread());                \
    return PtmRuntime::Libc::NAME ARGS;                                        \
  }
#define PTM_DEFINE_LIBC_                                                       \
  PTM_LIBC_(LibcMemchr, void *, memchr, (const void *s, int c, size_t n),      \
            (s, c, n))                                                         \
  PTM_LIBC_(LibcMemcmp, int, memcmp, (const void *a, const void *b, size_t n), \
            (a, b, n))                                                         \
  PTM_LIBC_(LibcStrlen, size_t, strlen, (const char *s), (s))                  \
  PTM_LIBC_(LibcStrnlen, size_t, strnlen, (const char *s, size_t m), (s, m))   \
  PTM_LIBC_(LibcStrcmp, int, strcmp, (const char *a, const char *b), (a, b))   \
  PTM_LIBC_(LibcStrncmp, int, strncmp,                                         \
            (const char *a, const char *b, size_t n), (a, b, n))               \
  PTM_LIBC_(LibcStrcpy, char *, strcpy, (char *d, const char *s), (d, s))      \
  PTM_LIBC_(LibcStrncpy, char *, strncpy, (char *d, const char *s, size_t n),  \
            (d, s, n))                                                         \
  PTM_LIBC_(LibcStpcpy, char *, stpcpy, (char *d, const char *s), (d, s))      \
  PTM_LIBC_(LibcStrcat, char *, strcat, (char *d, const char *s), (d, s))      \
  PTM_LIBC_(LibcStrncat, char *, strncat, (char *d, const char *s, size_t n),  \
            (d, s, n))                                                         \
  PTM_LIBC_(LibcStrchr, char *, strchr, (const char *s, int c), (s, c))        \
  PTM_LIBC_(LibcStrrchr, char *, strrchr, (const char *s, int c), (s, c))      \
  PTM_LIBC_(LibcStrstr, char *, strstr, (const char *h, const char *n),        \
            (h, n))                                                            \
  PTM_LIBC_(LibcStrspn, size_t, strspn, (const char *s, const char *a),        \
            (s, a))                                                            \
  PTM_LIBC_(LibcStrcspn, size_t, strcspn, (const char *s, const char *r),      \
            (s, r))                                                            \
  PTM_LIBC_(LibcStrpbrk, char *, strpbrk, (const char *s, const char *a),      \
            (s, a))                                                            \
  PTM_LIBC_(LibcStrdup, char *, strdup, (const char *s), (s))                  \
  PTM_LIBC_(LibcStrndup, char *, strndup, (const char *s, size_t n), (s, n))

#define PTM_DEFINE_ALLOC_                                                      \
  void *__ptm_tx_malloc(size_t n) {                                            \
    return PtmRuntime::alloc<PtmTxHeap>(n, 0);                                 \
  }                                                                            \
  void *__ptm_tx_calloc(size_t m, size_t n) {                                  \
    return PtmRuntime::alloc_zeroed<PtmTxHeap>(m, n);                          \
  }                                                                            \
  void *__ptm_tx_realloc(void *p, size_t n) {                                  \
    return PtmRuntime::realloc_tm(p, n);                                       \
  }                                                                            \
  void *__ptm_tx_aligned_alloc(size_t a, size_t n) {                           \
    return PtmRuntime::alloc<PtmTxHeap>(n, a);                                 \
  }                                                                            \
  int __ptm_tx_posix_memalign(void **p, size_t a, size_t n) {                  \
    return PtmRuntime::posix_memalign_tm(p, a, n);                             \
  }                                                                            \
  void __ptm_tx_free(void *p) { PtmRuntime::release<PtmTxHeap>(p); }           \
  void *__ptm_tx_allocate_exception(size_t n) noexcept {                       \
    return PtmRuntime::allocate_exception(n);                                  \
  }                                                                            \
  void *__ptm_tx_new(size_t n) { return PtmRuntime::new_tm(n, 0); }            \
  void *__ptm_tx_new_nothrow(size_t n) {                                       \
    return PtmRuntime::alloc<PtmTxHeap>(n ? n : 1, 0);                         \
  }                                                                            \
  void *__ptm_tx_new_aligned(size_t n, size_t a) {                             \
    return PtmRuntime::new_tm(n, a);                                           \
  }                                                                            \
  void *__ptm_tx_new_aligned_nothrow(size_t n, size_t a) {                     \
    return PtmRuntime::alloc<PtmTxHeap>(n ? n : 1, a);                         \
  }                                                                            \
  void __ptm_tx_delete(void *p) { PtmRuntime::release<PtmTxHeap>(p); }

#define PTM_DEFINE_POOL_                                                       \
  int ptm_open(const char *path, size_t size) {                                \
    return PtmPool::open(path, size);                                          \
  }                                                                            \
  void ptm_close(void) { PtmPool::close(); }                                   \
  void *ptm_root(size_t size) { return PtmPool::root(size); }                  \
  void *ptm_malloc(size_t n) {                                                 \
    return ::ptm::this_thread().depth ? PtmRuntime::alloc<PtmPool::Heap>(n, 0) \
                                      : PtmPool::Heap::allocate(n, 0);         \
  }                                                                            \
  void *ptm_calloc(size_t m, size_t n) {                                       \
    if (::ptm::this_thread().depth)                                            \
      return PtmRuntime::alloc_zeroed<PtmPool::Heap>(m, n);                    \
    size_t bytes;                                                              \
    if (__builtin_mul_overflow(m, n, &bytes))                                  \
      return nullptr;                                                          \
    void *p = PtmPool::Heap::allocate(bytes, 0);                               \
    return p ? memset(p, 0, bytes) : nullptr;                                  \
  }                                                                            \
  void *ptm_aligned_alloc(size_t a, size_t n) {                                \
    return ::ptm::this_thread().depth ? PtmRuntime::alloc<PtmPool::Heap>(n, a) \
                                      : PtmPool::Heap::allocate(n, a);         \
  }                                                                            \
  void ptm_free(void *p) {                                                     \
    if (::ptm::this_thread().depth)                                            \
      PtmRuntime::release<PtmPool::Heap>(p);                                   \
    else                                                                       \
      PtmPool::Heap::release(p);                                               \
  }

#endif // PTM_RUNTIME_ABI_GLUE_H
