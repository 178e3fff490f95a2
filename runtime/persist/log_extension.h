//===- log_extension.h - a transaction's log beyond its slot ----*- C++ -*-===//
//
// Transactions of any size (docs/pool.md "Log extensions"). When the
// running transaction's record needs more records than its slot holds, the
// record moves to a log extension: a run of the heap's free chunks lent to
// the thread (PersistentHeap::lend_run: out of the free set, never
// allocated in the heap's metadata, so a crash gives it back by itself),
// headed by a LogExtensionHeader and linked from the slot header
// (SlotHeader::log_ext) as record header 0's entries. A record that outgrows
// its extension moves to one twice as large. Moving, in this order:
//
//   the header and the records so far written to the new block; clwb;
//   sfence; log_ext = its offset; clwb; sfence; the old block given back
//
// so that a durable link always names a whole block holding every record
// the transaction had made durable (an undo log's), and recovery reads
// record header 0 from wherever the durable link points. Once the record
// is idle (committed, rolled back), release() clears the link (clwb, sfence)
// before the block goes back to the heap: the slot's next transaction never
// reads an old link, and no block is reused while a link names it.
// Recovery clears every link once the pool's records are idle.
//
// Per family: undo logs (eager libraries, crafty's global-lock path) and
// redo logs (lazy libraries) extend as above; a log ring's record first
// takes the whole slot (LogRing::spill), then extends, and its commit makes
// its data durable at once and its record idle (retire_ring) so that no
// other thread ever reads an extended record. Under buffered durability and
// with sp3 a transaction's log is a volatile buffer (the file is written by
// the persister): it extends into the process's memory, never linked; the
// persister's record extends into memory free in the file (the PM view),
// linked from its slot there (runtime/pool/persister.cpp).
// ExtensionSource says where a thread's extensions come from.
// Extensions cost nothing while a transaction fits its slot: the only test
// is the capacity test the log makes anyway.
//
// Out of heap space for an extension: a fatal error naming the size; the
// transaction has made nothing durable that recovery does not undo, so the
// pool is as before it once reopened.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PERSIST_LOG_EXTENSION_H
#define PTM_RUNTIME_PERSIST_LOG_EXTENSION_H

#include "runtime/pool/thread_slot.h"

#include <cstdint>

namespace ptm {

// Where a thread's log extensions come from and how they are linked.
struct ExtensionSource {
  // At least BYTES (*GOT: how many, whole lines), or nullptr if there is
  // no room.
  virtual void *lend(size_t bytes, size_t *got) = 0;
  virtual void give_back(void *block, size_t bytes) = 0;
  // The link to BLOCK (its offset in the pool file); 0: the log is a
  // volatile buffer, never linked, nothing of it flushed.
  virtual uint64_t link_of(const void *block) const = 0;

protected:
  ~ExtensionSource() = default;
};

struct LogExtension {
  // The calling thread's extensions come from SOURCE (nullptr: the open
  // pool's heap, or the process's memory under buffered durability and
  // with sp3).
  static void set_source(ExtensionSource *source);
  // S's record (COUNT records so far in ENTRIES) needs ADD more than its
  // capacity: it moves to an extension that holds them.
  static void grow(pool::SlotHandle &s, uint64_t add)
      __attribute__((noinline, cold));
  // S's record is idle (or never was linked): the link cleared, the block
  // given back, ENTRIES the slot's first record again. FENCED false: the
  // cleared link is left to the next fence (the persister's ring of
  // records, whose blocks no one else reuses before it).
  static void release(pool::SlotHandle &s, bool fenced = true)
      __attribute__((noinline, cold));
  // A log ring's extended record, committed (ORDER) and written back in
  // place: its data made durable and the record idle, then released.
  static void retire_ring(pool::SlotHandle &s, uint64_t order)
      __attribute__((noinline, cold));
};

} // namespace ptm

#endif // PTM_RUNTIME_PERSIST_LOG_EXTENSION_H
