//===- persist.cpp - flush instruction choice, NVM latency emulation ------===//

#include "runtime/persist/persist.h"
#include "runtime/persist/domain.h"
#include "runtime/persist/shadow.h"

#include "runtime/base/report.h"

#include <cpuid.h>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <x86intrin.h>

namespace ptm {
namespace persist {

FlushInsn flush_insn = FlushInsn::Clflush;
uint64_t latency_ticks_per_line = 0;
__thread uint64_t unfenced_lines = 0;
uint8_t fence_work = 0;
__thread bool own_syncs = false;

const char *flush_insn_name() {
  switch (flush_insn == FlushInsn::Shadow ? shadow.insn : flush_insn) {
  case FlushInsn::Clwb:
    return "clwb";
  case FlushInsn::Clflushopt:
    return "clflushopt";
  case FlushInsn::Clflush:
  case FlushInsn::Shadow:
    break;
  }
  return "clflush";
}

void fence_slow(bool rmw) {
  uint64_t lines = unfenced_lines;
  unfenced_lines = 0;
  if (lines == 0)
    return;
  if (!rmw && latency_ticks_per_line != 0) {
    uint64_t until = __rdtsc() + lines * latency_ticks_per_line;
    while (__rdtsc() < until)
      _mm_pause();
  }
  if ((fence_work & kFenceSync) && !own_syncs)
    sync_file();
}

namespace {

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// TSC ticks per nanosecond, measured over about 20 ms.
double tsc_ticks_per_ns() {
  uint64_t t0 = now_ns(), c0 = __rdtsc();
  uint64_t t1;
  do
    t1 = now_ns();
  while (t1 - t0 < 20000000u);
  uint64_t c1 = __rdtsc();
  return double(c1 - c0) / double(t1 - t0);
}

// Whether the CPU has INSN (cpuid leaf 7, EBX bit 24: clwb, bit 23:
// clflushopt; clflush is in every x86-64 CPU).
bool cpu_has(FlushInsn insn) {
  unsigned eax, ebx, ecx, edx;
  if (insn == FlushInsn::Clflush)
    return true;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
    return false;
  return ebx & (1u << (insn == FlushInsn::Clwb ? 24 : 23));
}

// PTM_FLUSH=clwb|clflushopt|clflush (tests run the paths of CPUs without
// clwb; one the CPU lacks is an error, as is any other value), else the
// strongest the CPU has.
FlushInsn chosen_flush_insn() {
  static const struct {
    const char *name;
    FlushInsn insn;
  } kByStrength[] = {{"clwb", FlushInsn::Clwb},
                     {"clflushopt", FlushInsn::Clflushopt},
                     {"clflush", FlushInsn::Clflush}};
  const char *env = getenv("PTM_FLUSH");
  if (env && *env) {
    for (const auto &n : kByStrength) {
      if (strcmp(env, n.name) != 0)
        continue;
      if (!cpu_has(n.insn))
        fatal("PTM_FLUSH=%s: this CPU has no %s (cpuid leaf 7)", env, n.name);
      return n.insn;
    }
    fatal("PTM_FLUSH='%s' is not a flush instruction (clwb, clflushopt or "
          "clflush)",
          env);
  }
  for (const auto &n : kByStrength)
    if (cpu_has(n.insn))
      return n.insn;
  return FlushInsn::Clflush;
}

__attribute__((constructor)) void init_persist() {
  flush_insn = chosen_flush_insn();
  const char *env = getenv("PTM_NVM_LATENCY_NS");
  if (env && *env) {
    char *end;
    unsigned long long ns = strtoull(env, &end, 10);
    if (*end != '\0')
      warning("PTM_NVM_LATENCY_NS='%s' is not a number of nanoseconds; no "
              "latency is emulated",
              env);
    else if (ns > 0 && !PTM_EADR) {
      latency_ticks_per_line = uint64_t(double(ns) * tsc_ticks_per_ns() + 0.5);
      fence_work |= kFenceLatency;
    }
  }
}

} // namespace
} // namespace persist
} // namespace ptm

extern "C" const char *ptm_flush_instruction(void) {
  return PTM_EADR ? "none" : ptm::persist::flush_insn_name();
}
