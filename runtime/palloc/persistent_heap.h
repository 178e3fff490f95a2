//===- persistent_heap.h - the persistent allocator -------------*- C++ -*-===//
//
// PersistentHeap manages a heap region [base, base+len) inside a persistent
// pool that is always mapped at the same address (pointers are plain
// addresses). Layout and algorithms: docs/palloc.md.
//
// Every change of persistent metadata after format() goes through a
// HeapWriter, which the runtime implements as a transactional write of the
// running transaction: an aborted or crashed transaction's allocations vanish
// with its log, and a free applied at commit is atomic with the transaction.
// The heap's volatile indexes are hints only; the persistent metadata read
// through the writer is the truth, so the heap needs no abort callback.
//
// A writer call may abort the transaction (and never return, e.g. longjmp):
// the heap holds no lock and no object with a destructor across writer calls.
//
// Deferred reuse (with a ReuseGate set): memory a transaction freed is not
// handed out again until every transaction that was running when the free
// committed has ended (docs/palloc.md, "Deferred reuse"). The heap only
// keeps the volatile bookkeeping: the free itself is committed at once, so a
// crash with memory held back loses nothing.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_PALLOC_PERSISTENT_HEAP_H
#define PTM_RUNTIME_PALLOC_PERSISTENT_HEAP_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ptm {

// How the allocator's metadata changes reach persistence: every write of a
// metadata word goes through the writer (a transactional write of the running
// transaction) and every read of metadata through read (a transaction may see
// its own pending redo writes). Metadata words are 8-byte aligned.
struct HeapWriter {
  virtual uint64_t read(const uint64_t *addr) = 0;
  virtual void write(uint64_t *addr, uint64_t value) = 0;
  // The request found no memory but some that is held back for reuse until
  // STAMP has passed (ReuseGate). A writer that can abort its transaction and
  // wait for STAMP outside it does so and does not return; otherwise the
  // allocation returns nullptr.
  virtual void reuse_blocked(uint64_t stamp) { (void)stamp; }
  // True if the writes are a transaction's, visible to other threads only
  // at its commit: the chunks it takes stay reserved (PersistentHeap::
  // end_attempt) until it has committed or rolled back.
  virtual bool in_transaction() const { return false; }

protected:
  ~HeapWriter() = default;
};

struct HeapStats {
  uint64_t bytes_total;      // bytes of all chunks (the allocatable area)
  uint64_t bytes_allocated;  // usable bytes of allocated blocks
  uint64_t blocks_allocated; // allocated blocks (small and large)
  uint64_t bytes_free;       // bytes of free blocks and free chunks
  uint64_t chunks_total;     // chunks of the region
  uint64_t chunks_free;      // chunks owned by nobody
  uint64_t chunks_small;     // chunks carved into one size class
  uint64_t chunks_large;     // chunks of large blocks (head and rest)
  uint64_t large_blocks;     // allocated blocks larger than the classes
};

// When freed memory may be reused (runtime/stm/reuse_epoch.h implements it).
struct ReuseGate {
  bool (*passed)(uint64_t stamp); // every transaction running at STAMP ended
  uint64_t (*now)();              // every stamp taken from now on is >= this
};

class PersistentHeap {
public:
  // Default alignment (and granularity) of every block: coarse-grained
  // logging (paper IV-B) needs blocks aligned to the logging granularity,
  // 16, 32 or 64 bytes, chosen at format time and recorded in the region.
  static constexpr size_t kDefaultGranularity = 16;
  // Largest alignment allocate() accepts.
  static constexpr size_t kMaxAlign = 4096;
  // Thread (arena) indexes are 0 .. kMaxThreads-1.
  static constexpr unsigned kMaxThreads = 256;
  // Batches of frees an arena keeps parked at most (park_frees).
  static constexpr unsigned kMaxParked = 4;
  // Regions smaller than this hold no chunk (every allocation fails).
  static size_t min_region_size();

  PersistentHeap();
  ~PersistentHeap();
  PersistentHeap(const PersistentHeap &) = delete;
  PersistentHeap &operator=(const PersistentHeap &) = delete;

  // At pool creation: lays out empty metadata with plain stores; the caller
  // flushes [base, base+len) (only the metadata part is written).
  // GRANULARITY: 16, 32 or 64.
  static void format(void *base, size_t len,
                     size_t granularity = kDefaultGranularity);

  // At every open, after the pool's log recovery: validates the region's
  // header and metadata (check()) and rebuilds the volatile indexes. False
  // with a message in *error if the metadata is damaged.
  bool attach(void *base, size_t len, std::string *error);

  // SIZE > 0; ALIGN 0 = the granularity; otherwise a power of two up to
  // kMaxAlign. THREAD: the thread's persistent slot (its arena). Returns
  // nullptr when the heap is full or the request is invalid.
  void *allocate(size_t size, size_t align, unsigned thread, HeapWriter &w);
  // PTR from allocate (nullptr is ignored); may be another thread's block.
  // A pointer that is not an allocated block is a fatal error. With a reuse
  // gate, the memory stays held back until THREAD settles its frees.
  void release(void *ptr, unsigned thread, HeapWriter &w);

  // Deferred reuse: GATE (null: memory is reusable as soon as a free
  // commits, for single-threaded users such as the tools). Set it before any
  // thread allocates.
  void set_reuse_gate(const ReuseGate *gate);
  // The transaction of THREAD that released memory since its last settle
  // has committed or aborted: that memory becomes reusable once STAMP (taken
  // after the commit point) has passed.
  void settle_frees(unsigned thread, uint64_t stamp);
  // The same, later: THREAD's frees since its last settle wait as a batch
  // tagged TAG (increasing: the caller's order of the commit that freed)
  // until settle_parked(THREAD, UPTO, STAMP) settles every batch tagged at
  // most UPTO. At most kMaxParked batches; parked(THREAD) is how many,
  // newest_parked_tag(THREAD) the last one's tag (0: none). Memory of a
  // chunk with parked frees is held back like unsettled memory.
  void park_frees(unsigned thread, uint64_t tag);
  void settle_parked(unsigned thread, uint64_t upto, uint64_t stamp);
  unsigned parked(unsigned thread) const;
  uint64_t oldest_parked_tag(unsigned thread) const;
  uint64_t newest_parked_tag(unsigned thread) const;
  // Free chunks a transaction takes (for a size class or a large block) are
  // reserved for it until it ends: its writes to the chunk's state word are
  // invisible to the others until its commit, and it writes the blocks in
  // place at once (last-allocation tracking, calloc's zeroing), so no other
  // transaction may take the same chunk meanwhile. True if THREAD's running
  // transaction holds reservations; end_attempt (after its commit or
  // rollback) releases them: a chunk whose committed state is free goes
  // back to the free set.
  bool has_reservations(unsigned thread) const;
  void end_attempt(unsigned thread);
  // Log extensions (runtime/persist/log_extension.h): a run of free chunks
  // of at least BYTES (*LENT: its size, whole chunks) lent to the caller
  // without being allocated: out of the free set, nothing written, so the
  // metadata still says free and a crash gives it back. nullptr if the heap
  // has no such run. return_run puts it back in the free set.
  void *lend_run(size_t bytes, size_t *lent);
  void return_run(void *p, size_t bytes);
  // Buffered durability's persister, whose log extends into the pool file's
  // copy of the region (the PM view, DELTA bytes from this mapping), which
  // only it writes: a run of at least BYTES (*GOT: whole chunks) whose
  // chunks are free in that copy's metadata and not marked in SKIP (a bit
  // per chunk, mark_chunks); its address in the copy, or nullptr.
  void *free_run_in_copy(intptr_t delta, size_t bytes,
                         const std::vector<uint64_t> &skip, size_t *got) const;
  // Marks in SKIP the chunks that [p, p + n) touches (none outside the
  // block area).
  void mark_chunks(std::vector<uint64_t> &skip, const void *p, size_t n) const;
  // Usable bytes of the block at PTR (0 if PTR is not a block start).
  size_t usable_size(const void *ptr) const;
  // True if PTR is inside the heap's block area (inline: every commit that
  // allocated asks it of each block).
  bool contains(const void *ptr) const {
    const char *p = static_cast<const char *>(ptr);
    return p >= blocks_lo_ && p < blocks_hi_;
  }

  // Full structural check of the persistent metadata; false + message on
  // damage. Plain loads: call it when no transaction is running.
  bool check(std::string *error) const;
  // Counts from the persistent metadata (plain loads, committed state).
  HeapStats stats() const;

  size_t granularity() const { return granularity_; }
  bool attached() const { return header_ != nullptr; }

  struct Impl;

private:
  struct Header;
  Header *header_ = nullptr;
  size_t granularity_ = kDefaultGranularity;
  std::unique_ptr<Impl> impl_;
  // The block area while attached (both null: contains() is false).
  const char *blocks_lo_ = nullptr, *blocks_hi_ = nullptr;
};

} // namespace ptm

#endif // PTM_RUNTIME_PALLOC_PERSISTENT_HEAP_H
