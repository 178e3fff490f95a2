//===- describe.h - names of functions and constructs for messages -*- C++ -*-//
#ifndef PTM_RUNTIME_DESCRIBE_H
#define PTM_RUNTIME_DESCRIBE_H

#include <cstddef>

namespace ptm {

// "symbol (0x...)" for FN, from dladdr, written into BUF.
const char *describe_function(const void *fn, char *buf, size_t size);
// Name of an enum ptm_unsupported_kind.
const char *unsupported_kind_name(int kind);
// What the user can do about a construct of KIND ("" or ". Remedy: ...").
const char *unsupported_remedy(int kind);
// True when PTM_UNSUPPORTED=error: unsupported constructs are fatal instead of
// making the transaction irrevocable.
bool unsupported_is_fatal();

} // namespace ptm

#endif // PTM_RUNTIME_DESCRIBE_H
