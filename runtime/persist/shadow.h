//===- shadow.h - clwb under buffered durability ----------------*- C++ -*-===//
//
// Buffered durability (runtime/pool/durability.h) maps the pool's address
// range as a private DRAM copy: transactions read and write there, and
// nothing they store reaches the file by itself. The file is mapped a second
// time, the PM view, DELTA bytes away. While the mode is on, flush_insn is
// FlushInsn::Shadow and every clwb of the runtime comes here:
//
//   a line of the thread slots (claims, generations)  copied to the PM view,
//                                                     then written back there
//   any other line of the pool (the root, the heap)   nothing: only the
//                                                     persister writes the
//                                                     data, from committed
//                                                     write sets, in order
//   a line outside the pool (the PM view itself)      written back
//
// so the runtime's own protocols (slot claims) keep their ordering, and the
// pool's data in the file move only from one committed prefix to the next.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSIST_SHADOW_H
#define PTM_RUNTIME_PERSIST_SHADOW_H

#include "runtime/persist/persist.h"

#include <cstdint>

namespace ptm {
namespace persist {

struct ShadowView {
  uintptr_t lo = 0, hi = 0;            // the pool's range (the DRAM copy)
  uintptr_t copy_lo = 0, copy_hi = 0;  // its thread slots: copied at clwb
  intptr_t delta = 0;                  // PM view address - pool address
  FlushInsn insn = FlushInsn::Clflush; // the instruction in use before
};

extern ShadowView shadow;

// Turns the mode on (flush_insn = Shadow) and off; no transaction runs.
void begin_shadow(const ShadowView &view);
void end_shadow();

// The PM view's copy of pool address A.
inline uintptr_t pm_address(uintptr_t a) { return a + uintptr_t(shadow.delta); }

} // namespace persist
} // namespace ptm

#endif // PTM_RUNTIME_PERSIST_SHADOW_H
