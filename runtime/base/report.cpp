//===- report.cpp - fatal errors and once-per-site warnings ---------------===//

#include "runtime/base/report.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>

namespace ptm {

static void vprint(const char *kind, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  fprintf(stderr, "ptm: %s: %s\n", kind, msg);
  fflush(stderr);
}

void fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("error", fmt, ap);
  va_end(ap);
  fflush(stdout);
  const char *abort_env = getenv("PTM_ABORT_ON_ERROR");
  if (abort_env && strcmp(abort_env, "1") == 0)
    abort();
  _exit(kFatalExitStatus);
}

void error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("error", fmt, ap);
  va_end(ap);
}

void warning(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("warning", fmt, ap);
  va_end(ap);
}

void note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint("note", fmt, ap);
  va_end(ap);
}

bool first_time_at(const char *site, const void *detail) {
  static std::mutex mutex;
  static std::set<std::pair<std::string, const void *>> *seen;
  std::lock_guard<std::mutex> lock(mutex);
  if (!seen)
    seen = new std::set<std::pair<std::string, const void *>>; // never freed
  return seen->emplace(site ? site : "", detail).second;
}

} // namespace ptm
