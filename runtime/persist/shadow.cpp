//===- shadow.cpp - clwb under buffered durability ------------------------===//

#include "runtime/persist/shadow.h"

#include <cstring>

namespace ptm {
namespace persist {

ShadowView shadow;

void begin_shadow(const ShadowView &view) {
  shadow = view;
  shadow.insn = flush_insn;
  flush_insn = FlushInsn::Shadow;
}

void end_shadow() {
  if (flush_insn == FlushInsn::Shadow)
    flush_insn = shadow.insn;
  shadow = ShadowView();
}

namespace {

// clwb's instruction as chosen at load (persist.h).
void write_back_line(uintptr_t line) {
#if !PTM_EADR
#if PTM_PERSIST_HOOKS
  ptm_persist_observe_flush(reinterpret_cast<const void *>(line));
#endif
  auto *p = reinterpret_cast<volatile char *>(line);
  if (shadow.insn == FlushInsn::Clwb)
    asm volatile("clwb %0" : "+m"(*p));
  else if (shadow.insn == FlushInsn::Clflushopt)
    asm volatile("clflushopt %0" : "+m"(*p));
  else
    asm volatile("clflush %0" : "+m"(*p));
  stat_add(this_thread().stats->clwb);
  ++unfenced_lines;
#else
  (void)line;
#endif
}

} // namespace

void shadow_clwb(const void *addr) {
  uintptr_t line =
      reinterpret_cast<uintptr_t>(addr) & ~uintptr_t(kLineSize - 1);
  if (line >= shadow.lo && line < shadow.hi) {
    if (line < shadow.copy_lo || line >= shadow.copy_hi)
      return; // the pool's data: the persister's
    memcpy(reinterpret_cast<void *>(pm_address(line)),
           reinterpret_cast<const void *>(line), kLineSize);
    line = pm_address(line);
  }
  write_back_line(line);
}

} // namespace persist
} // namespace ptm
