//===- stats.cpp - thread registry, ptm_stats*, PTM_STATS at exit ---------===//

#include "runtime/base/stats.h"

#include "runtime/base/report.h"
#include "runtime/persist/domain.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ptm {
namespace {

struct ThreadRecord {
  ptm_stats_t stats;
  ThreadRecord *next;
};

std::mutex registry_mutex;
ThreadRecord *registry_head; // newest first
size_t registry_count;

ptm_stats_t load(const ptm_stats_t &s) {
  ptm_stats_t out;
  const uint64_t *src = &s.commits;
  uint64_t *dst = &out.commits;
  for (size_t i = 0; i < sizeof(ptm_stats_t) / sizeof(uint64_t); ++i)
    dst[i] = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
  return out;
}

void accumulate(ptm_stats_t &total, const ptm_stats_t &s) {
  const uint64_t *src = &s.commits;
  uint64_t *dst = &total.commits;
  for (size_t i = 0; i < sizeof(ptm_stats_t) / sizeof(uint64_t); ++i)
    dst[i] += src[i];
}

void print_row(FILE *out, const char *label, const ptm_stats_t &s) {
  fprintf(out,
          "ptm: %-8s %12llu %10llu %14llu %14llu %12llu %12llu %12llu %10llu "
          "%10llu\n",
          label, (unsigned long long)s.commits, (unsigned long long)s.aborts,
          (unsigned long long)s.reads, (unsigned long long)s.writes,
          (unsigned long long)s.clwb, (unsigned long long)s.sfence,
          (unsigned long long)s.log_entries, (unsigned long long)s.allocs,
          (unsigned long long)s.frees);
}

void print_causes(FILE *out, const char *label, const ptm_stats_t &s) {
  fprintf(out,
          "ptm: %-8s %12llu %12llu %12llu %12llu %12llu %12llu %12llu %12llu "
          "%12llu %12llu %12llu %12llu\n",
          label, (unsigned long long)s.aborts_read,
          (unsigned long long)s.aborts_write,
          (unsigned long long)s.aborts_validation,
          (unsigned long long)s.aborts_restart,
          (unsigned long long)s.reuse_waits,
          (unsigned long long)s.hourglass_waits,
          (unsigned long long)s.hourglass_distressed,
          (unsigned long long)s.solo_commits, (unsigned long long)s.slot_waits,
          (unsigned long long)s.slots_given, (unsigned long long)s.slots_taken,
          (unsigned long long)s.syncs);
}

void print_at_exit() { ptm_stats_print(stderr); }

// PTM_STATS=1: print the figures when the process exits.
__attribute__((constructor)) void register_print_at_exit() {
  const char *env = getenv("PTM_STATS");
  if (env && strcmp(env, "0") != 0 && *env)
    atexit(print_at_exit);
}

static_assert(sizeof(ptm_stats_t) % sizeof(uint64_t) == 0,
              "ptm_stats_t is a sequence of uint64_t");

} // namespace

ptm_stats_t *register_thread_stats() {
  auto *record = static_cast<ThreadRecord *>(calloc(1, sizeof(ThreadRecord)));
  if (!record)
    fatal("out of memory registering a thread");
  std::lock_guard<std::mutex> lock(registry_mutex);
  record->next = registry_head;
  registry_head = record;
  ++registry_count;
  return &record->stats;
}

} // namespace ptm

using namespace ptm;

extern "C" void ptm_stats(ptm_stats_t *total) {
  ptm_stats_t sum;
  memset(&sum, 0, sizeof sum);
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (ThreadRecord *r = registry_head; r; r = r->next)
    accumulate(sum, load(r->stats));
  // (the persister's syncs too, which no thread's row counts)
  if (persist::last_domain() == persist::Domain::File)
    sum.syncs = persist::file_syncs();
  *total = sum;
}

extern "C" size_t ptm_stats_threads(ptm_stats_t *out, size_t max) {
  std::lock_guard<std::mutex> lock(registry_mutex);
  // The registry is newest first; report the oldest thread as entry 0.
  size_t i = registry_count;
  for (ThreadRecord *r = registry_head; r; r = r->next) {
    --i;
    if (i < max)
      out[i] = load(r->stats);
  }
  return registry_count;
}

extern "C" void ptm_stats_print(FILE *out) {
  if (!out)
    out = stderr;
  std::lock_guard<std::mutex> lock(registry_mutex);
  fprintf(out,
          "ptm: statistics of library '%s' (flush instruction: %s, "
          "persistence domain: %s)\n",
          ptm_algorithm(), ptm_flush_instruction(),
          persist::domain_name(persist::last_domain()));
  fprintf(out, "ptm: %-8s %12s %10s %14s %14s %12s %12s %12s %10s %10s\n",
          "thread", "commits", "aborts", "reads", "writes", "clwb", "sfence",
          "log_entries", "allocs", "frees");
  // The registry is newest first; thread #0 is the first that attached.
  ptm_stats_t sum;
  memset(&sum, 0, sizeof sum);
  size_t index = registry_count;
  for (ThreadRecord *r = registry_head; r; r = r->next) {
    ptm_stats_t s = load(r->stats);
    char label[32];
    snprintf(label, sizeof label, "#%zu", --index);
    print_row(out, label, s);
    accumulate(sum, s);
  }
  print_row(out, "total", sum);
  // Second table: aborts by cause, the hourglass, solo mode, slots, syncs.
  fprintf(out,
          "ptm: %-8s %12s %12s %12s %12s %12s %12s %12s %12s %12s %12s "
          "%12s %12s\n",
          "thread", "abort_read", "abort_write", "abort_valid", "abort_restart",
          "abort_reuse", "hg_waits", "hg_distress", "solo_commits",
          "slot_waits", "slots_given", "slots_taken", "syncs");
  index = registry_count;
  for (ThreadRecord *r = registry_head; r; r = r->next) {
    char label[32];
    snprintf(label, sizeof label, "#%zu", --index);
    print_causes(out, label, load(r->stats));
  }
  print_causes(out, "total", sum);
  if (persist::last_domain() == persist::Domain::File)
    fprintf(out, "ptm: syncs of the pool file: %llu\n",
            (unsigned long long)persist::file_syncs());
  fflush(out);
}
