//===- barriers.h - loads, stores, memory intrinsics and libc ---*- C++ -*-===//
//
// Barriers<P>: __ptm_read_N/__ptm_write_N (N = 1, 2, 4, 8, n), __ptm_memcpy,
// __ptm_memmove, __ptm_memset and the libc string functions (through
// TxLibc) on top of policy P. Every one first reports its event and asks
// P::inject_abort (barrier<E>), then, with last-allocation tracking, serves
// accesses inside the attempt's latest allocation in place, and hands the
// rest to P. read, write, read_n and write_n inline into user code (the
// __ptm_read_N/__ptm_write_N symbols are always_inline, define_runtime.h):
// read and write are P's own fast paths (P::read, P::write: small, with
// their slow paths out of line, hot_cold.h); read_n and write_n, of any
// size, call P's byte loops out of line.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_ABI_BARRIERS_H
#define PTM_RUNTIME_ABI_BARRIERS_H

#include "runtime/abi/tx_alloc.h"
#include "runtime/abi/tx_boundary.h"
#include "runtime/abi/tx_libc.h"
#include "runtime/abi/tx_stdcxx.h"
#include "runtime/base/events.h"
#include "runtime/base/hot_cold.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ptm {

template <class P> struct Barriers {
  using Tx = TxBoundary<P>;

  // ---- Barriers
  // ---------------------------------------------------------------

  template <Event E> static PTM_INLINE void barrier(TxThread &tx) {
    P::on_event(tx, E, 0);
    if (__builtin_expect(P::inject_abort(tx), 0))
      Tx::injected_abort(tx);
  }

  template <class T, Event E> static PTM_INLINE T read(const void *addr) {
    TxThread &tx = this_thread();
    barrier<E>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->reads);
    // (kLastAllocLate: the policy tests its allocations on its slow paths,
    // where its fast paths cannot tell the blocks from other memory)
    if constexpr (P::kLastAllocTracking && !P::kReadsInPlace &&
                  !P::kLastAllocLate)
      if (in_tx_alloc(tx, addr, sizeof(T))) {
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
    if constexpr (P::kLastAllocTracking && !P::kLastAllocLate)
      if (in_tx_alloc(tx, addr, sizeof(T)))
        return (void)memcpy(addr, &val, sizeof val);
    P::template write<T>(tx, static_cast<T *>(addr), val);
  }

  static PTM_INLINE void read_n(void *dst, const void *addr, size_t n) {
    TxThread &tx = this_thread();
    barrier<Event::ReadN>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->reads);
    if constexpr (P::kLastAllocTracking)
      if (in_tx_alloc(tx, addr, n))
        return (void)memcpy(dst, addr, n);
    if constexpr (P::kReadsInPlace)
      P::read_bytes(tx, dst, addr, n);
    else
      read_bytes_outline(tx, dst, addr, n);
  }
  static PTM_OUTLINE void read_bytes_outline(TxThread &tx, void *dst,
                                             const void *addr, size_t n) {
    P::read_bytes(tx, dst, addr, n);
  }

  static PTM_INLINE void write_n(void *addr, const void *src, size_t n) {
    TxThread &tx = this_thread();
    barrier<Event::WriteN>(tx);
    if constexpr (P::kCountAccesses)
      stat_add(tx.stats->writes);
    store_bytes_outline(tx, addr, src, n);
  }
  static PTM_OUTLINE void store_bytes_outline(TxThread &tx, void *dst,
                                              const void *src, size_t n) {
    store_bytes(tx, dst, src, n);
  }

  // Every multi-byte write of the glue (write_n, mem*, libc). With
  // last-allocation tracking, the bytes inside blocks the attempt allocated
  // are stored in place and only the rest goes through the policy: reads
  // there are plain (read, read_n), so no byte of them may sit in a redo log.
  static void store_bytes(TxThread &tx, void *dst, const void *src, size_t n) {
    if constexpr (P::kLastAllocTracking) {
      auto lo = reinterpret_cast<uintptr_t>(dst);
      uintptr_t hi = lo + n;
      MemRange b;
      if (tx.captured.first_overlap(lo, hi, b)) {
        uintptr_t ilo = lo > b.lo ? lo : b.lo, ihi = hi < b.hi ? hi : b.hi;
        auto *s = static_cast<const char *>(src);
        if (lo < ilo) // (no captured block there: B is the first)
          P::write_bytes(tx, dst, s, ilo - lo);
        memmove(reinterpret_cast<void *>(ilo), s + (ilo - lo), ihi - ilo);
        if (ihi < hi)
          store_bytes(tx, reinterpret_cast<void *>(ihi), s + (ihi - lo),
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

  // What TxStdcxx reads and writes nodes through: the barriers themselves,
  // one per field (each may abort: the test runtime's sweeps reach them).
  struct NodeAccess {
    static constexpr bool kPlainReads = P::kReadsInPlace;
    template <class T> static PTM_INLINE T load(const T *p) {
      static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a node field");
      using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
      constexpr Event E = sizeof(T) == 8 ? Event::Read8 : Event::Read4;
      U u = Barriers::template read<U, E>(p);
      T v;
      memcpy(&v, &u, sizeof v);
      return v;
    }
    template <class T> static PTM_INLINE void store(T *p, T v) {
      static_assert(sizeof(T) == 4 || sizeof(T) == 8, "a node field");
      using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
      constexpr Event E = sizeof(T) == 8 ? Event::Write8 : Event::Write4;
      U u;
      memcpy(&u, &v, sizeof u);
      Barriers::template write<U, E>(p, u);
    }
    static void read_bytes(void *priv, const void *tm, size_t n) {
      Barriers::read_n(priv, tm, n);
    }
  };
  using Stdcxx = TxStdcxx<NodeAccess>;
};

} // namespace ptm

#endif // PTM_RUNTIME_ABI_BARRIERS_H
