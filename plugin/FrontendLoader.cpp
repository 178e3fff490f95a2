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

#include <dlfcn.h>
#include <libgen.h>

#include <cstdio>
#include <string>

namespace {

// A symbol only a process containing Clang's frontend defines.
const char *const ClangFrontendSymbol =
    "_ZN5clang17ASTFrontendAction13ExecuteActionEv";

std::string thisLibraryDirectory() {
  Dl_info Info;
  if (dladdr(reinterpret_cast<void *>(&thisLibraryDirectory), &Info) == 0 ||
      !Info.dli_fname)
    return std::string();
  std::string Path = Info.dli_fname;
  return std::string(dirname(Path.data()));
}

__attribute__((constructor)) void loadFrontendAction() {
  if (!dlsym(RTLD_DEFAULT, ClangFrontendSymbol))
    return;
  std::string Dir = thisLibraryDirectory();
  std::string Companion = Dir + "/libptm_plugin_frontend.so";
  if (!dlopen(Companion.c_str(), RTLD_NOW | RTLD_GLOBAL))
    std::fprintf(stderr,
                 "ptm: error: cannot load %s (%s); `-fplugin` will not enable "
                 "the instrumentation (use -fpass-plugin instead)\n",
                 Companion.c_str(), dlerror());
}

} // namespace
