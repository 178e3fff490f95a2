//===- LibraryDirectory.h - where a plugin library is installed -*- C++ -*-===//
//
// The two plugin libraries (libptm_plugin.so and libptm_plugin_frontend.so)
// sit in one directory and find each other there.
//
//===----------------------------------------------------------------------===//

#ifndef PTM_PLUGIN_LIBRARYDIRECTORY_H
#define PTM_PLUGIN_LIBRARYDIRECTORY_H

#include <dlfcn.h>

#include <string>

namespace ptm {

// Directory of the shared object that contains Symbol ("" if unknown).
inline std::string libraryDirectoryOf(const void *Symbol) {
  Dl_info Info;
  if (dladdr(Symbol, &Info) == 0 || !Info.dli_fname)
    return std::string();
  std::string Path = Info.dli_fname;
  size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

} // namespace ptm

#endif
