//===- describe.cpp - names of functions and constructs for messages ------===//

#include "runtime/abi/describe.h"

#include "ptm_abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>

namespace ptm {

const char *describe_function(const void *fn, char *buf, size_t size) {
  Dl_info info;
  if (dladdr(fn, &info) && info.dli_sname)
    snprintf(buf, size, "%s (%p)", info.dli_sname, fn);
  else if (info.dli_fname)
    snprintf(buf, size, "function %p in %s", fn, info.dli_fname);
  else
    snprintf(buf, size, "function %p", fn);
  return buf;
}

const char *unsupported_kind_name(int kind) {
  switch (kind) {
  case PTM_UNSUPPORTED_INLINE_ASM:
    return "inline assembly";
  case PTM_UNSUPPORTED_CALL:
    return "external function without a transactional clone";
  case PTM_UNSUPPORTED_SETJMP:
    return "setjmp/longjmp";
  case PTM_UNSUPPORTED_INTRINSIC:
    return "memory intrinsic";
  case PTM_UNSUPPORTED_IRREVOCABLE:
    return "irrevocable operation";
  default:
    return "unsupported construct";
  }
}

const char *unsupported_remedy(int kind) {
  if (kind != PTM_UNSUPPORTED_CALL)
    return "";
  return ". Remedy: if the function touches no shared memory, redeclare it "
         "with PTM_PURE (e.g. `PTM_PURE int f(int);`); otherwise compile its "
         "source with the plugin, or call a wrapper of your own that does "
         "its work with code compiled with the plugin, or move the call out "
         "of the transaction (docs/ABI.md lists the libc functions that have "
         "transactional versions)";
}

bool unsupported_is_fatal() {
  const char *mode = getenv("PTM_UNSUPPORTED");
  return mode && strcmp(mode, "error") == 0;
}

} // namespace ptm
