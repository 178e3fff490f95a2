//===- report.h - fatal errors and once-per-site warnings -------*- C++ -*-===//
//
// Every message of the runtime goes through here, so the format is uniform:
//   ptm: error: <message>      then the process exits with status 70
//                              (EX_SOFTWARE), or calls abort() when
//                              PTM_ABORT_ON_ERROR=1 (to get a core dump)
//   ptm: error: <message>      (error()) a failed call that returns an error
//   ptm: warning: <message>    printed once per site (see first_time_at)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_REPORT_H
#define PTM_RUNTIME_REPORT_H

namespace ptm {

// Exit status of a fatal runtime error (sysexits.h EX_SOFTWARE).
constexpr int kFatalExitStatus = 70;

// Prints "ptm: error: ..." to stderr and ends the process without running
// atexit handlers (a transaction may hold locks they would need).
[[noreturn]] void fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), cold));

// Prints "ptm: error: ..." to stderr and returns (the caller reports the
// failure through its result).
void error(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));

// Prints "ptm: warning: ..." to stderr.
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));

// Prints "ptm: note: ..." to stderr (information, nothing went wrong).
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));

// True the first time it is called with this (site, detail) pair in the
// process, false afterwards. SITE is compared by content.
bool first_time_at(const char *site, const void *detail) __attribute__((cold));

} // namespace ptm

#endif // PTM_RUNTIME_REPORT_H
