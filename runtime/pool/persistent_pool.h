//===- persistent_pool.h - the pool API of the persistent libraries -*- C++
//-*-===//
//
// One pool per process. open_pool validates (read-only), creates if needed,
// maps at the header's address, recovers the thread slots' logs, then
// attaches the heap; only then do transactions run. PersistentPool<P> is the
// `Pool` of a persistent policy P (ptm_open, ptm_close, ptm_root, Heap).
//
// The default pool: a transaction, ptm_root or ptm_malloc without ptm_open
// opens PTM_POOL (created with PTM_POOL_SIZE, default 1 GiB, if absent), or a
// private temporary pool under $TMPDIR that is unlinked as soon as it is
// mapped (nothing is left behind, even after a crash).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_POOL_PERSISTENT_POOL_H
#define PTM_RUNTIME_POOL_PERSISTENT_POOL_H

#include "runtime/persist/persist.h"
#include "runtime/pool/durability.h"
#include "runtime/pool/heap_adapter.h"
#include "runtime/pool/pool_view.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ptm {
namespace pool {

constexpr uint64_t kDefaultPoolSize = 1ull << 30;

// The open pool (base == nullptr: none).
extern PoolView open_view;

// ptm_open: 0 or -errno (with a message). TEMPORARY: the runtime's private
// pool, unlinked once open (its persistence domain is page-cache).
int open_pool(const char *path, size_t size, bool temporary = false);
// ptm_close: waits for the process's transactions to leave the pool, unmaps.
void close_pool();
// The open state word (pool_format.h) of the pool mapped shared at BASE set
// to STATE, durable in the open pool's persistence domain.
void write_open_state(char *base, uint64_t state);
// ptm_pool_slots: the open pool's thread slots (0: no pool open).
unsigned open_slot_count();
// Opens the default pool if no pool is open; fatal on failure.
void ensure_pool_open();
// Next commit order of a redo-logged transaction (global, increasing).
uint64_t next_commit_order();
// A slot for a thread of the runtime (the persister of buffered
// durability), claimed while the pool opens; false if none is free.
bool claim_service_slot(SlotHandle &s);
void release_service_slot(const SlotHandle &s);

// The root object (creating it in a transaction run by RUN), see ptm_root.
void *root_object(size_t size, void (*create)(size_t size));

} // namespace pool

// P can leave durability to the persister (P::kDefersDurability, the lazy
// algorithms over the log ring): runtime/pool/durability.h.
template <class P, class = void> struct DefersDurability : std::false_type {};
template <class P>
struct DefersDurability<P, std::void_t<decltype(P::kDefersDurability)>>
    : std::bool_constant<P::kDefersDurability> {};

// P persists speculatively (P::kSpeculative, sp3: runtime/pool/speculative.h)
// with P::clock() as its commit orders.
template <class P, class = void> struct Speculative : std::false_type {
  static std::atomic<uint64_t> *clock() { return nullptr; }
};
template <class P>
struct Speculative<P, std::void_t<decltype(P::kSpeculative)>>
    : std::bool_constant<P::kSpeculative> {
  static std::atomic<uint64_t> *clock() { return P::clock(); }
};

template <class P> struct PersistentPool {
  static constexpr int kPersistent = 1;
  using Heap = pool::PoolHeap<P>;

  // At load (define_runtime.h): what the library can do.
  static bool note_library() {
    pool::library_defers_durability = DefersDurability<P>::value;
    pool::library_speculative = Speculative<P>::value;
    pool::speculative_clock = Speculative<P>::clock();
    return true;
  }
  static int open(const char *path, size_t size) {
    return pool::open_pool(path, size);
  }
  static void close() { pool::close_pool(); }
  static unsigned slots() { return pool::open_slot_count(); }
  static int sync() { return pool::sync_durable(); }
  static void *root(size_t size) {
    return pool::root_object(size, &create_root);
  }

private:
  // Allocates the zeroed root object and publishes it in the descriptor,
  // in one transaction.
  static void create_root(size_t size) {
    pool::run_in_tx([&] {
      pool::RootDescriptor *d = pool::open_view.root();
      TxThread &tx = this_thread();
      if (P::template read<uint64_t>(tx, &d->offset) != 0)
        return; // another thread was first
      void *p = Heap::allocate(size, 64);
      if (!p)
        return;
      // Fresh and unreachable until this transaction commits: zeroed in
      // place and, as a block the transaction allocated, made durable
      // before its commit record (flush_allocs; buffered: queued with it).
      memset(p, 0, size);
      tx.allocs.push_back(AllocRecord{p, &Heap::release, size});
      P::template write<uint64_t>(tx, &d->size, size);
      P::template write<uint64_t>(
          tx, &d->offset,
          uint64_t(static_cast<char *>(p) - pool::open_view.base));
    });
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_POOL_PERSISTENT_POOL_H
