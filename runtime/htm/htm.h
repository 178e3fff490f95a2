//===- htm.h - hardware transactions: Intel RTM or an emulation -*- C++ -*-===//
//
// The hardware-transaction primitives a library built on HTM (crafty) uses,
// behind one interface with three paths, chosen once per process:
//
//   HtmPath::Rtm       Intel RTM (xbegin/xend/xabort). An abort rolls memory
//                      and registers back to the xbegin, which returns the
//                      abort status.
//   HtmPath::Emulated  a software stand-in with the same contract for the
//                      code above it, so that the HTM logic runs and is
//                      tested on every CPU: hardware transactions are
//                      serialized by one lock; a store inside one goes
//                      through store() (which keeps the old bytes) and an
//                      abort puts them back. An abort found inside the
//                      transaction cannot return to the begin (no register
//                      checkpoint): the caller unwinds to its own checkpoint
//                      instead. begin(drain) with DRAIN first issues an
//                      sfence, standing for the drain an RTM commit gives
//                      the flushes before it (for a transaction whose stores
//                      must not reach NVM before them: the emulation's
//                      stores are in memory as they are made). The crash
//                      simulator takes the emulation's lock around each
//                      event, so that no image holds a speculative store.
//                      Aborts can be injected: every Nth hardware
//                      transaction aborts at its end (PTM_HTM_ABORT_EVERY).
//   HtmPath::Off       no hardware transactions (the caller's fallback).
//
// PTM_HTM selects it: unset or "auto": RTM if the CPU has it (cpuid and a
// trial transaction that commits), else off; "rtm": RTM or a fatal error;
// "emulate"; "off". Anything else is a fatal error.
//
// Abort statuses are RTM's (bit 0 explicit xabort with its code in bits
// 24-31, bit 1 retry may succeed, bit 2 conflict, bit 3 capacity); the
// emulation reports the same bits.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_HTM_HTM_H
#define PTM_RUNTIME_HTM_HTM_H

#include "runtime/base/report.h"
#include "runtime/persist/persist.h"

#include <atomic>
#include <cpuid.h>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sched.h>

namespace ptm {
namespace htm {

enum class HtmPath : uint8_t { Off, Rtm, Emulated };

constexpr unsigned kStarted = ~0u;
constexpr unsigned kExplicit = 1u << 0;
constexpr unsigned kRetry = 1u << 1;
constexpr unsigned kConflict = 1u << 2;
constexpr unsigned kCapacity = 1u << 3;

constexpr unsigned explicit_code(unsigned status) { return status >> 24; }

// Abort counts by cause (PTM_STATS prints them for an HTM library).
enum AbortKind : unsigned {
  kKindConflict,
  kKindCapacity,
  kKindExplicit,
  kKindOther,
  kKinds
};
inline AbortKind abort_kind(unsigned status) {
  if (status & kExplicit)
    return kKindExplicit;
  if (status & kConflict)
    return kKindConflict;
  if (status & kCapacity)
    return kKindCapacity;
  return kKindOther;
}

// The RTM instructions, as inline assembly (no -mrtm needed to build; run
// only where the CPU has RTM).
__attribute__((always_inline)) inline unsigned rtm_begin() {
  unsigned status = kStarted;
  asm volatile("xbegin 1f\n1:" : "+a"(status) : : "memory");
  return status;
}
__attribute__((always_inline)) inline void rtm_end() {
  asm volatile("xend" : : : "memory");
}
template <unsigned char Code>
__attribute__((always_inline, noreturn)) inline void rtm_abort() {
  asm volatile("xabort %0" : : "i"(Code) : "memory");
  __builtin_unreachable();
}

// The CPU has RTM and a trial transaction commits (microcode may have
// disabled it: then every xbegin aborts).
inline bool rtm_usable() {
  unsigned a, b, c, d;
  if (__get_cpuid_max(0, nullptr) < 7)
    return false;
  __cpuid_count(7, 0, a, b, c, d);
  if (!(b & (1u << 11)))
    return false;
  for (int i = 0; i < 16; ++i)
    if (rtm_begin() == kStarted) {
      rtm_end();
      return true;
    }
  return false;
}

inline HtmPath choose_path() {
  const char *v = getenv("PTM_HTM");
  if (!v || !*v || strcmp(v, "auto") == 0)
    return rtm_usable() ? HtmPath::Rtm : HtmPath::Off;
  if (strcmp(v, "off") == 0)
    return HtmPath::Off;
  if (strcmp(v, "emulate") == 0)
    return HtmPath::Emulated;
  if (strcmp(v, "rtm") == 0) {
    if (!rtm_usable())
      fatal("PTM_HTM=rtm: this CPU has no usable RTM (no 'rtm' flag in "
            "/proc/cpuinfo, or its transactions always abort); use "
            "PTM_HTM=auto, emulate or off");
    return HtmPath::Rtm;
  }
  fatal("PTM_HTM=%s: expected auto, rtm, emulate or off", v);
}

inline HtmPath path() {
  static const HtmPath p = choose_path();
  return p;
}

inline const char *path_name(HtmPath p) {
  switch (p) {
  case HtmPath::Rtm:
    return "rtm";
  case HtmPath::Emulated:
    return "emulated";
  default:
    return "off";
  }
}

// The emulation's state: the lock that serializes its hardware transactions
// and the stores of the running one (one thread at a time holds it).
struct Emulation {
  struct Saved {
    void *addr;
    uint64_t old;
    unsigned n;
  };
  static inline std::atomic<bool> busy{false};
  static inline uint64_t every = [] {
    const char *v = getenv("PTM_HTM_ABORT_EVERY");
    return v ? strtoull(v, nullptr, 10) : 0;
  }();
  static inline uint64_t started = 0; // hardware transactions begun
  static inline Saved *saved = nullptr;
  static inline size_t nsaved = 0, cap = 0;

  static void lock() {
    unsigned spins = 0;
    while (busy.exchange(true, std::memory_order_acquire))
      while (busy.load(std::memory_order_relaxed))
        if (++spins % 256 == 0)
          sched_yield();
        else
          __builtin_ia32_pause();
  }
  static void unlock() { busy.store(false, std::memory_order_release); }

  static void begin(bool drain) {
    if (drain)
      persist::sfence();
    lock();
    ++started;
    nsaved = 0;
  }
  // The old bytes of [addr, addr + n), n <= 8, kept for an abort.
  static void keep(void *addr, unsigned n) {
    if (nsaved == cap) {
      size_t ncap = cap ? 2 * cap : 1024;
      auto *p = static_cast<Saved *>(realloc(saved, ncap * sizeof(Saved)));
      if (!p)
        fatal("out of memory in the HTM emulation");
      saved = p;
      cap = ncap;
    }
    Saved &s = saved[nsaved++];
    s.addr = addr;
    s.n = n;
    s.old = 0;
    memcpy(&s.old, addr, n);
  }
  // Puts back every store of the running transaction and ends it.
  static void abort() {
    while (nsaved > 0) {
      Saved &s = saved[--nsaved];
      memcpy(s.addr, &s.old, s.n);
    }
    unlock();
  }
  // kStarted: committed; else the injected abort's status (rolled back).
  static unsigned end() {
    if (every && started % every == 0) {
      abort();
      return kConflict | kRetry;
    }
    nsaved = 0;
    unlock();
    return kStarted;
  }
};

// A store inside a hardware transaction of PATH.
template <class T>
__attribute__((always_inline)) inline void store(HtmPath p, T *addr, T v) {
  if (p == HtmPath::Emulated)
    Emulation::keep(addr, sizeof(T));
  memcpy(addr, &v, sizeof v);
}

} // namespace htm
} // namespace ptm

#endif // PTM_RUNTIME_HTM_HTM_H
