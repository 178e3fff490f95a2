//===- hourglass.h - the hourglass contention manager -----------*- C++ -*-===//
//
// Section III-B of the paper. A transaction that has aborted k consecutive
// times (PTM_HOURGLASS_K, default 16) is distressed: it sets a global flag
// (the hourglass) and keeps running instrumented. While the flag is set, no
// other thread starts an attempt -- new transactions and retries alike wait
// in begin -- so the attempts already running drain away and the distressed
// transaction eventually runs alone and commits; it then clears the flag.
//
// The same flag serializes irrevocable transactions: the owner additionally
// waits until no other attempt runs (TxSlots::drain) and then works in place
// (StmThread::serial). Begin announces the attempt before reading the flag
// (tx_slots.h), which closes the window in which the paper lets a thread
// "sneak" one attempt past the flag: irrevocability needs that guarantee.
//
// Use from a policy:
//   begin:               Hourglass::enter(tx, st[, leave, reenter])
//                        (before any read; LEAVE and REENTER: what the policy
//                        entered first, its pool slot, is left while the
//                        thread waits for the flag, so that ptm_close, which
//                        waits for the slots in use, never waits for a
//                        thread that waits for the hourglass owner, which may
//                        itself wait for the close to reopen the pool)
//   begin_irrevocable:   Hourglass::enter_serial(tx, st)
//   commit:              Hourglass::leave(st)           (after write-back)
//   rollback:            Hourglass::leave_after_abort(st)
//   become_irrevocable:  Hourglass::serialize<P>(tx, st, validate)
//   on_event:            Hourglass::on_event(st, e)     (exception unwind)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_HOURGLASS_H
#define PTM_RUNTIME_HOURGLASS_H

#include "runtime/base/events.h"
#include "runtime/base/policy_base.h"
#include "runtime/base/stats.h"
#include "runtime/base/tx_thread.h"
#include "runtime/stm/solo_owner.h"
#include "runtime/stm/tx_slots.h"

#include <atomic>
#include <cstdlib>

namespace ptm {

struct Hourglass {
  static inline std::atomic<uint32_t> owner alignas(64){0}; // 0 or slot + 1

  // k: consecutive aborts that make a transaction distressed.
  static uint32_t threshold() {
    static const uint32_t k = [] {
      const char *env = getenv("PTM_HOURGLASS_K");
      long v = env && *env ? strtol(env, nullptr, 10) : 16;
      return static_cast<uint32_t>(v < 1 ? 1 : v);
    }();
    return k;
  }

  static uint32_t me(const StmThread &st) {
    return static_cast<uint32_t>(st.slot) + 1;
  }

  // Takes the flag, waiting while someone else holds it (the caller runs no
  // attempt, so it holds nothing the owner may wait for).
  static void acquire(TxThread &tx, StmThread &st) {
    if (st.owns_hourglass)
      return;
    bool waited = false;
    for (unsigned spins = 0;;) {
      uint32_t expected = 0;
      if (owner.load(std::memory_order_relaxed) == 0 &&
          owner.compare_exchange_weak(expected, me(st)))
        break;
      waited = true;
      spin_pause(spins);
    }
    if (waited)
      stat_add(tx.stats->hourglass_waits);
    st.owns_hourglass = true;
  }

  static void release(StmThread &st) {
    if (st.owns_hourglass) {
      owner.store(0, std::memory_order_release);
      st.owns_hourglass = false;
    }
  }

  // Starts an attempt: claims a slot, becomes distressed after k aborts,
  // waits while another thread holds the hourglass, announces the attempt.
  using Hook = void (*)();

  static __attribute__((always_inline)) void enter(TxThread &tx, StmThread &st,
                                                   Hook leave = nullptr,
                                                   Hook reenter = nullptr) {
    if (__builtin_expect(st.slot < 0, 0))
      TxSlots::claim(st);
    if (__builtin_expect(st.want_serial, 0))
      return enter_serial(tx, st);
    if (__builtin_expect(tx.attempt > threshold(), 0) && !st.owns_hourglass)
      become_distressed(tx, st);
    TxSlots::announce(st);
    uint32_t o = owner.load(std::memory_order_seq_cst);
    if (__builtin_expect(o != 0 && o != me(st), 0))
      wait_for_hourglass(tx, st, leave, reenter);
  }

  static __attribute__((noinline)) void become_distressed(TxThread &tx,
                                                          StmThread &st) {
    uint32_t expected = 0;
    if (owner.load(std::memory_order_relaxed) == 0 &&
        owner.compare_exchange_strong(expected, me(st))) {
      st.owns_hourglass = true;
      stat_add(tx.stats->hourglass_distressed);
    }
  }

  // (LEAVE before the wait, REENTER after it and before announcing again:
  // re-entering may block until a ptm_close in progress ends, and a thread
  // blocked there must not be announced, or a quiescing commit the close
  // waits for would wait for it)
  static __attribute__((noinline)) void
  wait_for_hourglass(TxThread &tx, StmThread &st, Hook leave, Hook reenter) {
    stat_add(tx.stats->hourglass_waits);
    for (;;) {
      TxSlots::retire(st);
      if (leave)
        leave();
      for (unsigned spins = 0;;) {
        uint32_t o = owner.load(std::memory_order_acquire);
        if (o == 0 || o == me(st))
          break;
        spin_pause(spins);
      }
      if (reenter)
        reenter();
      TxSlots::announce(st);
      uint32_t o = owner.load(std::memory_order_seq_cst);
      if (o == 0 || o == me(st))
        return;
    }
  }

  // Starts an attempt that runs alone (irrevocable from the start).
  static __attribute__((noinline)) void enter_serial(TxThread &tx,
                                                     StmThread &st) {
    if (st.slot < 0)
      TxSlots::claim(st);
    acquire(tx, st);
    TxSlots::announce(st);
    SoloOwner::revoke_other(st);
    TxSlots::drain(st);
    st.serial = true;
    st.want_serial = false;
  }

  // The attempt committed.
  static __attribute__((always_inline)) void leave(StmThread &st) {
    TxSlots::retire(st);
    if (__builtin_expect(st.owns_hourglass, 0)) {
      release(st);
      st.serial = false;
      st.want_serial = false;
    }
  }

  // The attempt was rolled back. A distressed transaction keeps the flag for
  // its retry; a serial one (only an exception unwinds it) and one that an
  // exception ends give it back.
  static void leave_after_abort(StmThread &st) {
    TxSlots::retire(st);
    if (st.serial || st.ending) {
      release(st);
      st.want_serial = false;
    }
    st.serial = false;
    st.ending = false;
  }

  static __attribute__((always_inline)) void on_event(StmThread &st, Event e) {
    if (e == Event::UnwindRollback)
      st.ending = true;
  }

  // Makes the running attempt irrevocable: takes the flag, waits until it
  // runs alone, then VALIDATE(tx) must confirm its reads. Aborts (and retries
  // serial from the start) when another thread holds the flag or the reads
  // are stale. The caller then switches its barriers to in-place mode.
  template <class P, class Validate>
  static void serialize(TxThread &tx, StmThread &st, Validate validate) {
    if (st.serial)
      return;
    if (!st.owns_hourglass) {
      uint32_t expected = 0;
      if (!owner.compare_exchange_strong(expected, me(st))) {
        st.want_serial = true;
        tx_conflict<P>(tx, AbortCause::Validation);
      }
      st.owns_hourglass = true;
    }
    SoloOwner::revoke_other(st);
    TxSlots::drain(st);
    if (!validate(tx)) {
      st.want_serial = true; // keeps the flag: the retry starts serial
      tx_conflict<P>(tx, AbortCause::Validation);
    }
    st.serial = true;
    st.solo = false; // (solo barriers never test for serial; no library
                     // with solo mode calls this today)
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_HOURGLASS_H
