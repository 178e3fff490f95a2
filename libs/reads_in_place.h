//===- reads_in_place.h - plain-load reads under a global lock --*- C++ -*-===//
//
// ReadsInPlace<Base>: the reads of the policies whose memory always holds
// the transaction's own view (one global lock, writes in place: cgl,
// p_cgl_eager and its gp_/ip_ forms). A read is a plain load;
// kReadsInPlace tells the glue (barriers.h) so.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_READS_IN_PLACE_H
#define PTM_LIBS_READS_IN_PLACE_H

#include "runtime/base/tx_thread.h"

#include <cstring>

namespace ptm {

template <class Base> struct ReadsInPlace : Base {
  static constexpr bool kReadsInPlace = true;

  template <class T>
  __attribute__((always_inline)) static T read(TxThread &, const T *addr) {
    T value;
    memcpy(&value, addr, sizeof value);
    return value;
  }

  static void read_bytes(TxThread &, void *priv, const void *tm, size_t n) {
    memcpy(priv, tm, n);
  }
};

} // namespace ptm

#endif // PTM_LIBS_READS_IN_PLACE_H
