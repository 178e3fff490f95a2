//===- durability.h - strict or buffered durability -------------*- C++ -*-===//
//
// PTM_DURABILITY, read when a pool opens (docs/durability.md):
//
//   strict         (default) a transaction is durable when it returns
//   buffered[:MS]  a transaction is atomic and isolated as always and durable
//                  within MS milliseconds (default 10, 1..60000); after a
//                  crash the pool holds a prefix of the commit order, and
//                  nothing committed before the last ptm_sync is lost
//
// Buffered durability needs a library whose transactions write only through
// their redo log (the lazy gp_/ip_ libraries) or in place under one global
// lock (gp_cgl_eager, ip_cgl_eager: libs/buffered_in_place.h):
// kDefersDurability. The pool's
// address range becomes a private DRAM copy of the file and the file is
// mapped a second time (the PM view, runtime/persist/shadow.h); a commit
// writes back in place and queues its write set (commit_queue.h) with a
// sequence number; the persister (persister.h) writes the queued write sets,
// in sequence, to the PM view, through a redo record in its own slot, so
// recovery of a crash is the ordinary one. Writes to pool memory outside a
// transaction do not reach the file in this mode.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_DURABILITY_H
#define PTM_RUNTIME_POOL_DURABILITY_H

#include "runtime/pool/pool_view.h"

#include <atomic>
#include <cstdint>

namespace ptm {
namespace pool {

struct DurabilityMode {
  bool buffered = false;
  unsigned interval_ms = 10;
  // Strict on the persister (the file domain, strict_on_persister): the
  // buffered machinery, each transaction's end waiting for its record.
  bool awaited = false;
};

// Parses TEXT ("strict", "buffered", "buffered:MS"); false if malformed.
bool parse_durability(const char *text, DurabilityMode *out);

// PTM_DURABILITY for the pool PATH: 0, or -EINVAL / -ENOTSUP with a message
// (malformed, or buffered with a library that cannot defer durability).
int durability_from_env(const char *path, DurabilityMode *out);

// The open pool runs with buffered durability (set before its first
// transaction, cleared after its last).
extern bool buffered;
// ... and its transactions wait for their durability (strict durability in
// the file domain, strict_on_persister): a transaction that wrote returns
// once the persister's record of its commit is synced, one that only read
// once every commit before its end is (it may have read them), so that
// nothing a transaction returns can be lost to a power cut. The threads
// sync nothing themselves: the persister's one sync per round covers every
// commit queued before it (group commit), and they wait for it outside
// their algorithm's locks.
extern bool awaited;

// Whether strict durability in the file domain goes through the persister:
// when the library can defer durability (not sp3, whose strict mode is its
// own) and PTM_FILE_COMMIT is not "fence" (each library's fences then sync
// the file, under its locks). PATH: for the message; -EINVAL if
// PTM_FILE_COMMIT is neither "persister" nor "fence".
int strict_on_persister(const char *path, bool *out);
// The linked library can defer durability (set at load).
extern bool library_defers_durability;
// The linked library persists speculatively (sp3, speculative.h: on the two
// views under strict durability too), its commit orders from CLOCK (set at
// load).
extern bool library_speculative;
extern std::atomic<uint64_t> *speculative_clock;

// open_pool, after recovery (the pool is mapped shared at its base): the
// DRAM copy, the PM view and the persister. Fatal if the mappings fail.
void start_buffered(const PoolView &view, const char *path,
                    const DurabilityMode &mode);
// close_pool, no transaction running: everything committed written to the
// file, the pool marked closed cleanly there, the PM view unmapped (the DRAM
// copy goes with the pool's mapping).
void stop_buffered(const PoolView &view);

// ptm_sync: every transaction committed so far is durable when it returns.
int sync_durable();

} // namespace pool
} // namespace ptm

#endif // PTM_RUNTIME_POOL_DURABILITY_H
