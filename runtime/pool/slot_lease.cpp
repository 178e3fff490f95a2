//===- slot_lease.cpp - thread slots leased to running transactions -------===//
//
// A slot is free, held by a thread (HOLDER: its handle), or a service slot
// of the runtime's own threads (claimed, no holder). A holder keeps its slot
// across transactions until one of three things happens, each under
// pool_mutex and with the holder outside any transaction:
//
//   - it gives the slot back at the end of a transaction while threads wait
//     (a waiting thread sets the holders' HEAP_WORK, so leave_tx, which
//     tests it anyway, goes to leave_tx_heap_work, which sees SLOT_WAITERS;
//     a set the holder overwrote is made again every 10 ms);
//   - a waiting thread takes it from the holder, which runs no transaction
//     (a thread that ran one and went to sleep would otherwise keep it);
//   - the holder exits.
//
// The taking side is a Dekker pair with enter_tx, as ptm_close is: the
// taker marks the holder's EPOCH with kSlotTaken, fence_heavy(), then reads
// its presence flag; the holder sets its flag, fence_light(), then compares
// EPOCH with the pool's. Either the taker sees the holder inside (and
// restores the epoch) or the holder sees the mark (and claims again, waiting
// for the mutex; it finds the epoch restored, or claims another slot). A
// vacated slot goes to the first thread in line (first come, first served: a
// thread that gave its slot back does not take it again ahead of those
// waiting).
//
// Vacating a slot makes its last commit's data durable (LogRing::drain, as
// at thread exit); the next claim starts the slot at generations above all
// it has used and any slot had at the open (claim_gen), congruent to its
// index (kGenStride). A waiting thread sleeps on a condition variable; it
// also looks for an idle holder every 10 ms, in case a holder went idle
// without seeing it in line.
//
//===----------------------------------------------------------------------===//

#include "runtime/pool/slot_lease.h"

#include "runtime/base/asymmetric_fence.h"
#include "runtime/base/report.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"
#include "runtime/persist/log_ring.h"
#include "runtime/persist/log_stage.h"
#include "runtime/persist/persist.h"
#include "runtime/persist/persistent_redo_log.h"
#include "runtime/pool/deferred_free.h"
#include "runtime/pool/freed_blocks.h"
#include "runtime/pool/heap_adapter.h"
#include "runtime/pool/persistent_pool.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <pthread.h>

namespace ptm {

extern __thread SlotLogIndex tls_log_index;
extern __thread OutsideEntries tls_outside;

namespace pool {

// (read at every leave_tx: a line of its own, which only threads that wait
// write)
alignas(64) std::atomic<uint32_t> slot_waiters{0};

namespace {

alignas(64) std::atomic<uint8_t> slot_claimed[kMaxSlots];
SlotHandle *holder[kMaxSlots]; // nullptr: free, or a service slot
uint32_t service_slots;        // claimed by the runtime's own threads
// The largest generation of any slot when the pool was opened (claim_gen,
// record headers): a claim starts above it too, so above every generation
// a pool written before generations were the slots' own (pool_format.h
// kGenStride) has, in any slot.
uint64_t open_gen_floor;

// The largest generation slot header H shows: its last claim's and its
// records' statuses'.
uint64_t slot_max_gen(const SlotHeader &h) {
  uint64_t g = h.claim_gen;
  for (unsigned p = 0; p < kRingParts; ++p)
    g = std::max(g, status_gen(record_header(h, p).status));
  return g;
}

struct Waiter {
  SlotHandle *s;
  bool granted = false;
  std::condition_variable_any cv;
};
std::deque<Waiter *> line;
pthread_key_t slot_key;

void set_epoch(SlotHandle &s, uint64_t epoch) {
  __atomic_store_n(&s.epoch, epoch, __ATOMIC_RELAXED);
}

// Asks every holder to look at the line at its next transaction's end.
void ask_holders() {
  for (SlotHandle *h : holder)
    if (h)
      __atomic_store_n(&h->heap_work, true, __ATOMIC_RELAXED);
}

// Slot I, free, becomes S's: S's volatile view of it set up.
void assign(SlotHandle &s, uint32_t i) {
  s.index = i;
  s.hdr = open_view.slot(i);
  // A stage of another capacity (an earlier pool's) is freed; one of this
  // pool's is kept, so that a thread moving between slots does not
  // allocate one per claim.
  if (s.slot_capacity != open_view.capacity())
    LogStage::release(s);
  s.slot_entries = open_view.entries(i);
  s.entries = s.stage ? s.stage : s.slot_entries;
  s.capacity = s.slot_capacity = open_view.capacity();
  // Log ring: from part 0, nothing unflushed, the slot's floors (a
  // record this thread writes never lowers the pool's floor).
  s.part = 0;
  s.last_unflushed = false;
  s.floor = 0;
  s.wide_order = 0;
  s.free_order = 0;
  s.awaited_seq = 0;
  for (unsigned p = 0; p < kRingParts; ++p)
    if (record_header(*s.hdr, p).floor > s.floor)
      s.floor = record_header(*s.hdr, p).floor;
  // Generations of a claim start above every generation an earlier
  // claim can have left in the entries (a lazy transaction's aborted
  // entries are not reflected in a status word), and above every slot's
  // at the open (open_gen_floor): the next multiple of 2^24 above the
  // last claim's, the records' and that floor, plus the slot's index
  // (kGenStride), made durable before the first transaction. (The records
  // stay: a log ring's may still be needed, docs/algorithms.md.)
  uint64_t g = std::max(slot_max_gen(*s.hdr), open_gen_floor) + 1;
  s.gen = ((g + (1ull << 24) - 1) & ~((1ull << 24) - 1)) + s.index;
  s.count = 0;
  __atomic_store_n(&s.hdr->claim_gen, s.gen, __ATOMIC_RELEASE);
  persist::persist_range(&s.hdr->claim_gen, sizeof s.hdr->claim_gen);
  set_epoch(s, pool_epoch.load());
}

// A free slot's index, claimed; false if none is free.
bool take_free(uint32_t *out) {
  uint32_t n = open_view.header.slot_count;
  if (n > kMaxSlots)
    n = kMaxSlots;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t expected = 0;
    if (slot_claimed[i].load(std::memory_order_relaxed) == 0 &&
        slot_claimed[i].compare_exchange_strong(expected, 1)) {
      *out = i;
      return true;
    }
  }
  return false;
}

// Slot I's holder S (outside any transaction) loses it; the slot goes to
// the first thread in line, or is free.
void vacate(SlotHandle &s) {
  uint32_t i = s.index;
  // Its parked frees settled (freed_blocks.h): no later holder of the slot
  // may come to settle them.
  if (pool_heap)
    settle_freed_blocks(s, /*now=*/true);
  s.parked_tag = 0;
  LogRing::drain(s); // its last commit's data durable
  holder[i] = nullptr;
  set_epoch(s, pool_epoch.load() | kSlotTaken);
  if (line.empty()) {
    slot_claimed[i].store(0, std::memory_order_release);
    return;
  }
  Waiter *w = line.front();
  line.pop_front();
  assign(*w->s, i);
  holder[i] = w->s;
  w->granted = true;
  w->cv.notify_one();
}

// Takes a slot from a holder that runs no transaction: false if every
// holder is inside one.
bool take_from_idle_holder() {
  uint32_t n = open_view.header.slot_count;
  if (n > kMaxSlots)
    n = kMaxSlots;
  for (uint32_t i = 0; i < n; ++i) {
    SlotHandle *h = holder[i];
    if (!h)
      continue;
    std::atomic<uint8_t> &inside = presence[h->presence].inside;
    if (inside.load(std::memory_order_relaxed))
      continue;
    uint64_t epoch = pool_epoch.load();
    set_epoch(*h, epoch | kSlotTaken);
    fence_heavy(); // pairs with enter_tx's fence_light
    if (inside.load(std::memory_order_seq_cst)) {
      set_epoch(*h, epoch); // it entered: keeps its slot
      continue;
    }
    vacate(*h);
    stat_add(this_thread().stats->slots_taken);
    return true;
  }
  return false;
}

void release_slot_at_exit(void *) {
  free_passed_blocks(/*wait=*/true);
  SlotHandle &s = tls_slot;
  std::lock_guard<std::recursive_mutex> lock(pool_mutex);
  if (s.epoch != 0 && s.epoch == pool_epoch.load())
    vacate(s);
  LogStage::release(s);
  set_epoch(s, 0);
  release_presence(s.presence);
  s.presence = 0;
  tls_log_index.release();
  tls_outside.release();
}

void create_slot_key() {
  if (pthread_key_create(&slot_key, release_slot_at_exit) != 0)
    fatal("cannot create the thread-slot key");
}

} // namespace

void reset_slot_leases() {
  service_slots = 0;
  open_gen_floor = 0;
  for (uint32_t i = 0; i < open_view.header.slot_count; ++i)
    open_gen_floor = std::max(open_gen_floor, slot_max_gen(*open_view.slot(i)));
  for (uint32_t i = 0; i < kMaxSlots; ++i) {
    slot_claimed[i].store(0, std::memory_order_relaxed);
    holder[i] = nullptr;
  }
}

void end_slot_leases() {
  for (Waiter *w : line)
    w->cv.notify_one();
  line.clear();
  for (uint32_t i = 0; i < kMaxSlots; ++i)
    holder[i] = nullptr;
}

void claim_slot() {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, create_slot_key);
  std::unique_lock<std::recursive_mutex> lock(pool_mutex);
  SlotHandle &s = tls_slot;
  // Until the thread holds a slot of the open pool (a pool closed while it
  // waits: the default pool, as for any transaction with none open).
  for (;;) {
    ensure_pool_open();
    if (s.presence == 0)
      s.presence = claim_presence();
    pthread_setspecific(slot_key, &s);
    uint64_t epoch = pool_epoch.load();
    if (s.epoch == epoch)
      return; // a taking undone: still its slot
    set_epoch(s, 0);
    uint32_t i;
    if (line.empty() && take_free(&i)) {
      assign(s, i);
      holder[i] = &s;
      return;
    }
    if (service_slots >= open_view.header.slot_count)
      fatal("the pool has %u thread slot(s), all held by the runtime's own "
            "threads (buffered durability's persister): no transaction can "
            "run; create the pool with more (ptm-pool create --slots, "
            "PTM_POOL_SLOTS)",
            open_view.header.slot_count);
    // In line until a slot is vacated for it (or the pool closes).
    Waiter w;
    w.s = &s;
    line.push_back(&w);
    slot_waiters.fetch_add(1, std::memory_order_seq_cst);
    stat_add(this_thread().stats->slot_waits);
    if (!take_from_idle_holder())
      ask_holders();
    while (!w.granted && pool_epoch.load() == epoch) {
      if (w.cv.wait_for(lock, std::chrono::milliseconds(10)) ==
              std::cv_status::timeout &&
          !w.granted && !take_from_idle_holder())
        ask_holders();
    }
    slot_waiters.fetch_sub(1, std::memory_order_seq_cst);
    if (w.granted)
      return;
    // Closed (end_slot_leases emptied the line).
    for (auto it = line.begin(); it != line.end(); ++it)
      if (*it == &w) {
        line.erase(it);
        break;
      }
  }
}

void give_slot_back(SlotHandle &s) {
  std::lock_guard<std::recursive_mutex> lock(pool_mutex);
  if (!line.empty() && s.epoch == pool_epoch.load()) {
    vacate(s);
    stat_add(this_thread().stats->slots_given);
  }
}

bool claim_service_slot(SlotHandle &s) {
  uint32_t i;
  if (!take_free(&i))
    return false;
  assign(s, i);
  ++service_slots;
  return true;
}

void release_service_slot(const SlotHandle &s) {
  --service_slots;
  slot_claimed[s.index].store(0, std::memory_order_release);
}

} // namespace pool
} // namespace ptm
