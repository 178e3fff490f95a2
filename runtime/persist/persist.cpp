//===- persist.cpp - flush instruction choice, NVM latency emulation ------===//

#include "runtime/persist/persist.h"
#include "runtime/persist/shadow.h"

#include "runtime/base/report.h"

#include <cpuid.h>
#include <cstdlib>
#include <ctime>
#include <x86intrin.h>

namespace ptm {
namespace persist {

FlushInsn flush_insn = FlushInsn::Clflush;
uint64_t latency_ticks_per_line = 0;
__thread uint64_t unfenced_lines = 0;

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

void pay_latency() {
  uint64_t lines = unfenced_lines;
  unfenced_lines = 0;
  if (lines == 0)
    return;
  uint64_t until = __rdtsc() + lines * latency_ticks_per_line;
  while (__rdtsc() < until)
    _mm_pause();
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

__attribute__((constructor)) void init_persist() {
  unsigned eax, ebx, ecx, edx;
  if (__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
    if (ebx & (1u << 24))
      flush_insn = FlushInsn::Clwb;
    else if (ebx & (1u << 23))
      flush_insn = FlushInsn::Clflushopt;
  }
  const char *env = getenv("PTM_NVM_LATENCY_NS");
  if (env && *env) {
    char *end;
    unsigned long long ns = strtoull(env, &end, 10);
    if (*end != '\0')
      warning("PTM_NVM_LATENCY_NS='%s' is not a number of nanoseconds; no "
              "latency is emulated",
              env);
    else if (ns > 0)
      latency_ticks_per_line = uint64_t(double(ns) * tsc_ticks_per_ns() + 0.5);
  }
}

} // namespace
} // namespace persist
} // namespace ptm
