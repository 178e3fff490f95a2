//===- config.h - what the crash simulator does (PTM_CRASH_*) ---*- C++ -*-===//
//
// The crash simulator's settings, read from the environment each time it
// starts tracking a newly opened pool (so a forked child can setenv before
// ptm_open). docs/crash_simulator.md describes every variable:
//
//   PTM_CRASH_AT=N          crash just before persistence event N (1-based)
//   PTM_CRASH_MODE=M        none | all | random: which lines that are not
//                           persistent yet the image keeps (default none)
//   PTM_CRASH_SEED=S        seed of `random` (default 1)
//   PTM_CRASH_IMAGE=PATH    where the crash image is written (required with
//                           PTM_CRASH_AT)
//   PTM_CRASH_COUNT=1       print the number of events at exit
//   PTM_CRASH_MUTATE=K:N    a deliberately broken persistence layer:
//                           drop-fence:N / drop-clwb:N / drop-sync:N ignore
//                           the N-th fence / clwb / sync of the pool file of
//                           every transaction; unflushed-extension
//                           links a log extension before writing it back;
//                           unawaited-commit: strict durability through the
//                           persister (the file domain) returns from a
//                           commit once the commit before it is durable,
//                           not its own; early-reuse: the log ring's
//                           freed blocks are settled for reuse at their
//                           commit's end, before a durable replay floor
//                           has passed the commit (freed_blocks.h)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_CRASH_SIM_CONFIG_H
#define PTM_RUNTIME_CRASH_SIM_CONFIG_H

#include <cstdint>
#include <string>

namespace ptm {
namespace crash_sim {

enum class Mode : uint8_t { None, All, Random };
enum class Mutation : uint8_t {
  Off,
  DropFence,
  DropClwb,
  DropSync,
  UnflushedExtension,
  EarlyReuse,
  UnawaitedCommit
};

struct Config {
  uint64_t crash_at = 0; // 0: never crash
  Mode mode = Mode::None;
  uint64_t seed = 1;
  std::string image;
  bool count = false;
  Mutation mutation = Mutation::Off;
  uint64_t mutate_nth = 0; // 1-based, within each transaction
  // PTM_CRASH_EVENTS=sync: only the syncs of the pool file are numbered
  // (PTM_CRASH_AT, the count), the only events that make anything
  // persistent in the file domain; every event otherwise.
  bool syncs_only = false;
};

// Reads the PTM_CRASH_* variables. False, with *ERROR set to a message that
// names the variable, if one is malformed.
bool read_config(Config *out, std::string *error);

const char *mode_name(Mode m);
const char *mutation_name(Mutation m);

} // namespace crash_sim
} // namespace ptm

#endif // PTM_RUNTIME_CRASH_SIM_CONFIG_H
