//===- solo_owner.h - a thread that runs alone skips the orecs --*- C++ -*-===//
//
// Solo mode (ours; docs/algorithms.md "Solo mode", PTM_OPT_SOLO). While one
// thread holds the solo ownership and nobody has revoked it, no other thread
// runs an attempt, so its attempts need no concurrency control: no orec
// checks on reads, no read set, no orec locks, validation or release at
// commit, and a commit time taken without a locked instruction. The
// logging, and with it durability and the commit order recovery follows, is
// unchanged.
//
// The ownership is one word, `owner`: a generation (bumped by every take)
// above bit 32, and below it 0 or the owner's slot + 1, with kRevoked while
// a revoker waits. A solo attempt remembers the word it began with
// (StmThread::solo_word) and checks it after every read (like an orec
// post-check, but of one hot line) and before its write-back; the word
// changes when the ownership is revoked, and the attempt then aborts and
// runs again with orecs. So a revocation never waits for the owner's
// transaction, only for a write-back in progress: TL2's progress (no
// transaction waits for one it does not conflict with) is kept.
//   - The owner's begin (enter) announces its attempt with a plain store,
//     reads `owner` behind a compiler barrier and, finding its word, runs
//     solo without looking at the hourglass flag: no locked instruction,
//     which would wait for the last commit's write-back stores to drain.
//   - Every other begin goes through the hourglass (a sequentially
//     consistent announcement) and then reads `owner` (admit). Finding
//     another owner there (revoked or not), it marks the word revoked,
//     issues fence_heavy (asymmetric_fence.h: it pays for the owner's
//     missing StoreLoad fences), waits while the owner's slot shows a solo
//     write-back (TxSlot::solo_writing, set with a plain store before the
//     owner's last check of the word), frees the word, and runs with orecs.
//     Whoever reads the word free runs beside no solo write-back, and
//     every solo attempt still running aborts before it writes.
//   - Finding the word free, now and then a thread tries to take it: CAS to
//     itself (next generation), then every other slot must show no attempt,
//     else it frees it again. A new thread tries at its first begin; after a
//     failed try or a lost ownership, the begins until the next try double
//     (64 up to 16384), so threads that do run together rarely pay for it.
//   - A thread that takes the hourglass to run serially revokes the
//     ownership first (revoke_other: the owner does not read the flag). A
//     thread that exits gives the ownership back.
// Each pair (announcement or solo_writing, then `owner`) against (write of
// `owner`, then the announcements or solo_writing) has a full fence on one
// side at least, as in Dekker's protocol.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_STM_SOLO_OWNER_H
#define PTM_RUNTIME_STM_SOLO_OWNER_H

#include "runtime/base/asymmetric_fence.h"
#include "runtime/base/hot_cold.h"
#include "runtime/stm/tx_slots.h"

#include <atomic>
#include <cstdint>

namespace ptm {

struct SoloOwner {
  alignas(64) static inline std::atomic<uint64_t> owner{0};
  static constexpr uint64_t kRevoked = uint64_t(1) << 31;
  static constexpr uint64_t kHolder = 0xffffffffu; // slot + 1 and kRevoked
  static constexpr uint64_t kGeneration = uint64_t(1) << 32;

  // Begins between two tries to take the ownership: after the first failure
  // (or loss), doubled after each one up to the largest.
  static constexpr int32_t kFirstTry = 64;
  static constexpr int32_t kMaxInterval = 1 << 14;

  static uint64_t me(const StmThread &st) {
    return static_cast<uint64_t>(st.slot) + 1;
  }
  static uint64_t holder(uint64_t w) { return w & kHolder; }
  static uint64_t freed(uint64_t w) { return w & ~kHolder; }

  // The begin of an attempt after a solo one, in place of the hourglass's:
  // true if it runs solo. False (the ownership was revoked, or the attempt
  // must start serial): the caller enters the hourglass, whose announcement
  // replaces this one.
  static PTM_INLINE bool enter(StmThread &st) {
    if (!st.solo || st.want_serial)
      return false;
    TxSlots::announce(st, std::memory_order_relaxed);
    fence_light();
    return owner.load(std::memory_order_relaxed) == st.solo_word;
  }

  // The solo attempt still holds the ownership: what it read so far is
  // what no other attempt has changed (the caller loaded its data first).
  static PTM_INLINE bool still_held(const StmThread &st) {
    std::atomic_thread_fence(std::memory_order_acquire);
    return owner.load(std::memory_order_relaxed) == st.solo_word;
  }

  // After the hourglass announced the attempt: true if it runs solo (a
  // serial one runs in place anyway). st.solo still tells whether the
  // thread's last attempt ran solo.
  static PTM_INLINE bool admit(StmThread &st) {
    uint64_t w = owner.load(std::memory_order_seq_cst);
    uint64_t h = holder(w);
    if (__builtin_expect(h == me(st), 0)) {
      st.solo_word = w;
      return true;
    }
    if (h != 0 && h != (me(st) | kRevoked))
      revoke(w);
    if (st.solo || h != 0) // revoked: another thread runs attempts
      back_off(st);
    else if (__builtin_expect(--st.solo_countdown <= 0, 0))
      return try_take(st, w); // (a new thread's countdown is 0: it tries now)
    return false;
  }

  // Marks the ownership W revoked, waits while its holder writes back a
  // solo commit (whose flag may be a plain store: begin_write_back), and
  // frees the word. Returns at once if the word is no longer W (or W
  // revoked): someone else freed or took it.
  static PTM_SLOW void revoke(uint64_t w) {
    uint64_t held = w | kRevoked;
    if (w != held &&
        !owner.compare_exchange_strong(w, held, std::memory_order_seq_cst) &&
        w != held)
      return;
    fence_heavy();
    std::atomic<uint32_t> &writing =
        TxSlots::slots[holder(held & ~kRevoked) - 1].solo_writing;
    for (unsigned spins = 0; writing.load(std::memory_order_acquire) != 0;)
      spin_pause(spins);
    owner.compare_exchange_strong(held, freed(held), std::memory_order_seq_cst);
  }

  static void back_off(StmThread &st) {
    st.solo_interval = st.solo_interval == 0             ? kFirstTry
                       : st.solo_interval < kMaxInterval ? st.solo_interval * 2
                                                         : kMaxInterval;
    st.solo_countdown = st.solo_interval;
  }

  // (W: the free word admit read)
  static PTM_SLOW bool try_take(StmThread &st, uint64_t w) {
    uint64_t taken = freed(w) + kGeneration + me(st);
    if (owner.compare_exchange_strong(w, taken, std::memory_order_seq_cst) &&
        alone(st)) {
      st.solo_word = taken;
      return true;
    }
    owner.compare_exchange_strong(taken, freed(taken),
                                  std::memory_order_seq_cst);
    back_off(st);
    return false;
  }

  // No other slot shows an attempt.
  static bool alone(const StmThread &st) {
    unsigned n = TxSlots::high_water.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; ++i)
      if (static_cast<int>(i) != st.slot &&
          TxSlots::slots[i].active.load(std::memory_order_seq_cst) != 0)
        return false;
    return true;
  }

  // A solo commit's write-back: announced (a plain store, ordered against
  // a revoker by fence_light/fence_heavy), then the ownership checked once
  // more. False: revoked, nothing to write (the caller aborts).
  static PTM_INLINE bool begin_write_back(const StmThread &st) {
    std::atomic<uint32_t> &writing = TxSlots::slots[st.slot].solo_writing;
    writing.store(1, std::memory_order_relaxed);
    fence_light();
    if (__builtin_expect(owner.load(std::memory_order_relaxed) == st.solo_word,
                         1))
      return true;
    writing.store(0, std::memory_order_release);
    return false;
  }
  static PTM_INLINE void end_write_back(const StmThread &st) {
    TxSlots::slots[st.slot].solo_writing.store(0, std::memory_order_release);
  }

  // A serial attempt, announced and holding the hourglass, before it waits
  // for every other attempt to end (TxSlots::drain): the owner's attempts
  // do not read the flag, so it must lose the ownership first.
  static void revoke_other(const StmThread &st) {
    for (;;) {
      uint64_t w = owner.load(std::memory_order_seq_cst);
      if (__builtin_expect(holder(w) == 0 || (holder(w) & ~kRevoked) == me(st),
                           1))
        return;
      revoke(w);
    }
  }

  // The thread exits (outside any attempt): gives the ownership back (a
  // revoked one its revoker frees), and a later attempt of it (from another
  // thread-exit destructor) begins through the hourglass, claiming a slot
  // again.
  static void resign(StmThread &st) {
    uint64_t w = owner.load(std::memory_order_seq_cst);
    if (holder(w) == me(st))
      owner.compare_exchange_strong(w, freed(w), std::memory_order_seq_cst);
    st.solo = false;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_STM_SOLO_OWNER_H
