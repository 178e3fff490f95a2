//===- FrontendLoader.cpp - load the frontend action inside clang
//----------===//
//
// `clang -fplugin=libptm_plugin.so` must enable the pass with no other flag.
// The frontend action that does so (FrontendAction.cpp) needs Clang's
// classes, so it lives in libptm_plugin_frontend.so beside this library; when
// this library is loaded into a process that contains Clang, a constructor
// loads the companion, whose static registration adds the action before
// clang looks at its plugin registry. Under opt, nothing happens.
//
//===----------------------------------------------------------------------===//

#include "LibraryDirectory.h"

#include <dlfcn.h>

#include <cstdio>
#include <string>

namespace {

// A symbol only a process containing Clang's frontend defines.
const char *const ClangFrontendSymbol =
    "_ZN5clang17ASTFrontendAction13ExecuteActionEv";

__attribute__((constructor)) void loadFrontendAction() {
  if (!dlsym(RTLD_DEFAULT, ClangFrontendSymbol))
    return;
  std::string Dir =
      ptm::libraryDirectoryOf(reinterpret_cast<void *>(&loadFrontendAction));
  std::string Companion = Dir + "/libptm_plugin_frontend.so";
  if (!dlopen(Companion.c_str(), RTLD_NOW | RTLD_GLOBAL))
    std::fprintf(stderr,
                 "ptm: error: cannot load %s (%s); `-fplugin` will not enable "
                 "the instrumentation (use -fpass-plugin instead)\n",
                 Companion.c_str(), dlerror());
}

} // namespace
