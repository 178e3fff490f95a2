//===- HostVersion.cpp - refuse to run inside another LLVM major ---------===//
//
// The plugin calls the C++ API of the LLVM it was built against, whose
// symbols the dynamic loader resolves from the host process (clang, opt,
// ld.lld). That API changes between majors and nothing notices: built for
// LLVM 16 and loaded into clang 19, or the reverse, the plugin loads and
// then crashes or, worse, computes with the other major's data layouts.
//
// So before any other code of the plugin runs (its static constructors
// register command-line options with the host's LLVM, FrontendLoader.cpp
// loads the companion), a constructor of the first priority asks the host
// for its version through LLVM's C API, whose LLVMGetVersion (LLVM 16 and
// later) is the same in every major, and ends the process with a message
// naming both versions when the majors differ (docs/install.md). It uses
// nothing of LLVM's C++ API.
//
//===----------------------------------------------------------------------===//

#include "llvm/Config/llvm-config.h"

#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>

#include <cstdio>

namespace {

using GetVersionFn = void (*)(unsigned *Major, unsigned *Minor,
                              unsigned *Patch);

__attribute__((constructor(101))) void checkHostVersion() {
  auto GetVersion =
      reinterpret_cast<GetVersionFn>(dlsym(RTLD_DEFAULT, "LLVMGetVersion"));
  unsigned Major = 0, Minor = 0, Patch = 0;
  if (GetVersion)
    GetVersion(&Major, &Minor, &Patch);
  if (GetVersion && Major == LLVM_VERSION_MAJOR)
    return;

  Dl_info Info;
  const char *Self = "libptm_plugin.so";
  if (dladdr(reinterpret_cast<void *>(&checkHostVersion), &Info) != 0 &&
      Info.dli_fname)
    Self = Info.dli_fname;
  const char *Host = program_invocation_short_name;
  if (GetVersion)
    std::fprintf(stderr,
                 "ptm plugin: built for LLVM %d, loaded into LLVM %u (%s); "
                 "use clang-%d (ptm-config --cc) or rebuild ptm with "
                 "-DPTM_LLVM_VERSION=%u [plugin: %s]\n",
                 LLVM_VERSION_MAJOR, Major, Host, LLVM_VERSION_MAJOR, Major,
                 Self);
  else
    std::fprintf(stderr,
                 "ptm plugin: built for LLVM %d, loaded into %s, whose LLVM "
                 "version is unknown (no LLVMGetVersion: LLVM 15 or older, "
                 "or no LLVM at all); use clang-%d (ptm-config --cc) "
                 "[plugin: %s]\n",
                 LLVM_VERSION_MAJOR, Host, LLVM_VERSION_MAJOR, Self);
  std::fflush(stderr);
  // The host may have an output file open already (clang loads
  // -fpass-plugin libraries after it created the object's temporary file):
  // llvm::sys::RunInterruptHandlers() removes the files registered for
  // removal on a signal, as on ^C. A function without arguments, the same in
  // every major. Then _exit, not exit: the host's atexit handlers and
  // destructors must not run from inside its dlopen call.
  if (auto RunInterruptHandlers = reinterpret_cast<void (*)()>(
          dlsym(RTLD_DEFAULT, "_ZN4llvm3sys20RunInterruptHandlersEv")))
    RunInterruptHandlers();
  _exit(1);
}

} // namespace
