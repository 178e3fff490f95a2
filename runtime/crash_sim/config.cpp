//===- config.cpp - PTM_CRASH_* environment variables ---------------------===//

#include "runtime/crash_sim/config.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace ptm {
namespace crash_sim {

namespace {

bool parse_u64(const char *text, uint64_t *out) {
  if (!text || !*text || *text == '-')
    return false;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || *end)
    return false;
  *out = v;
  return true;
}

const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : nullptr;
}

} // namespace

const char *mode_name(Mode m) {
  switch (m) {
  case Mode::None:
    return "none";
  case Mode::All:
    return "all";
  case Mode::Random:
    break;
  }
  return "random";
}

const char *mutation_name(Mutation m) {
  switch (m) {
  case Mutation::Off:
    return "off";
  case Mutation::DropFence:
    return "drop-fence";
  case Mutation::DropClwb:
    return "drop-clwb";
  case Mutation::DropSync:
    return "drop-sync";
  case Mutation::UnflushedExtension:
    return "unflushed-extension";
  case Mutation::EarlyReuse:
    return "early-reuse";
  case Mutation::UnawaitedCommit:
    break;
  }
  return "unawaited-commit";
}

bool read_config(Config *out, std::string *error) {
  Config c;
  if (const char *v = env("PTM_CRASH_AT")) {
    if (!parse_u64(v, &c.crash_at) || c.crash_at == 0) {
      *error = std::string("PTM_CRASH_AT='") + v +
               "' is not an event number (1, 2, ...)";
      return false;
    }
  }
  if (const char *v = env("PTM_CRASH_MODE")) {
    if (!strcmp(v, "none"))
      c.mode = Mode::None;
    else if (!strcmp(v, "all"))
      c.mode = Mode::All;
    else if (!strcmp(v, "random"))
      c.mode = Mode::Random;
    else {
      *error = std::string("PTM_CRASH_MODE='") + v +
               "' is not one of none, all, random";
      return false;
    }
  }
  if (const char *v = env("PTM_CRASH_SEED")) {
    if (!parse_u64(v, &c.seed)) {
      *error = std::string("PTM_CRASH_SEED='") + v +
               "' is not a non-negative integer";
      return false;
    }
  }
  if (const char *v = env("PTM_CRASH_IMAGE"))
    c.image = v;
  if (c.crash_at != 0 && c.image.empty()) {
    *error = "PTM_CRASH_AT is set but PTM_CRASH_IMAGE is not: name the file "
             "the crash image is written to";
    return false;
  }
  if (const char *v = env("PTM_CRASH_EVENTS")) {
    if (!strcmp(v, "sync"))
      c.syncs_only = true;
    else if (strcmp(v, "all") != 0) {
      *error = std::string("PTM_CRASH_EVENTS='") + v + "' is not all or sync";
      return false;
    }
  }
  if (const char *v = env("PTM_CRASH_COUNT"))
    c.count = strcmp(v, "0") != 0;
  if (const char *v = env("PTM_CRASH_MUTATE")) {
    const char *colon = strchr(v, ':');
    std::string kind = colon ? std::string(v, colon) : std::string(v);
    if (kind == "drop-fence")
      c.mutation = Mutation::DropFence;
    else if (kind == "drop-clwb")
      c.mutation = Mutation::DropClwb;
    else if (kind == "drop-sync")
      c.mutation = Mutation::DropSync;
    else if (kind == "unflushed-extension" && !colon)
      c.mutation = Mutation::UnflushedExtension;
    else if (kind == "unawaited-commit" && !colon)
      c.mutation = Mutation::UnawaitedCommit;
    else if (kind == "early-reuse" && !colon)
      c.mutation = Mutation::EarlyReuse;
    bool counted = c.mutation == Mutation::DropFence ||
                   c.mutation == Mutation::DropClwb ||
                   c.mutation == Mutation::DropSync;
    if (c.mutation == Mutation::Off ||
        (counted && (!colon || !parse_u64(colon + 1, &c.mutate_nth) ||
                     c.mutate_nth == 0))) {
      *error = std::string("PTM_CRASH_MUTATE='") + v +
               "' is not drop-fence:N, drop-clwb:N, drop-sync:N (N >= 1), "
               "unflushed-extension, unawaited-commit or early-reuse";
      return false;
    }
  }
  *out = c;
  return true;
}

} // namespace crash_sim
} // namespace ptm
