//===- crafty_policy.h - Crafty: nondestructive undo logging on HTM -*- C++
//-*-===//
//
// Crafty (../shared/papers/crafty.txt, PLDI'20) under ptm's strict
// durability; docs/algorithms.md "Crafty" has the protocol, its recovery
// rule and its fence formula. In short, a transaction runs:
//
//   Log phase      one hardware transaction runs the body: each write
//                  appends <word, old bytes> to the thread's slot log and
//                  stores in place; at the end it rolls the writes back,
//                  newest first, collecting the new values (the redo log),
//                  and writes the slot header: LOGGED, order = S + 1, where
//                  S is the global commit counter read inside it (at its
//                  end), and the entry count. After it commits, the entries
//                  and the header are flushed without a fence.
//   Redo phase     a hardware transaction that commits only if the counter
//                  is still S (no transaction committed since the Log
//                  phase): it applies the redo log, sets the counter
//                  to S + 1 and publishes S + 1 as this thread's pending
//                  commit.
//   Validate phase (the Redo check failed) the header is restamped with the
//                  counter's current value S' (flush, fence), and the body
//                  runs again in a hardware transaction whose writes must
//                  match the logged entries one by one (address, old bytes);
//                  it commits only if the counter is still S'.
//   durable        flush the written lines, fence; wait until every pending
//                  commit with a smaller order is durable (this transaction
//                  may have read its writes); write the order into the
//                  slot's floor, flush, fence.
//
// Repeated aborts (PTM_HTM tries), a capacity abort, an allocation, a free or
// an exception in a hardware transaction fall back to the single global lock
// (SGL), which hardware transactions subscribe to: its thread-unsafe mode
// with k = 1, an undo log fenced before each newly logged chunk (the
// ip_cgl_eager sequence), header LOGGED with order S + 1 set with the first
// entry. Where the CPU has no RTM (or PTM_HTM=off) every transaction runs
// that way; PTM_HTM=emulate runs the HTM phases on the emulation of
// runtime/htm/htm.h.
//
// Recovery (pool/recovery.cpp): W = the largest floor; a LOGGED log with
// order <= W is superseded (durable, or never applied); the others are
// rolled back, largest order first.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_CRAFTY_POLICY_H
#define PTM_LIBS_CRAFTY_POLICY_H

#include "libs/persistent_logging.h"
#include "libs/persistent_options.h"
#include "libs/persistent_policy_base.h"
#include "libs/reads_in_place.h"
#include "runtime/htm/htm.h"

#include <atomic>
#include <sched.h>

namespace ptm {

// Explicit abort codes of crafty's hardware transactions.
enum CraftyCode : unsigned char {
  kCodeSgl = 1,      // the SGL is held
  kCodeCheck = 2,    // the commit counter moved since the log was stamped
  kCodeValidate = 3, // a Validate write did not match its logged entry
  kCodeFallback = 4, // this transaction must run under the SGL
  kCodeRestart = 5,  // ptm_restart or another abort of the glue
};

// What a thread's crafty transaction is doing (volatile, per thread).
struct CraftyThread {
  enum Phase : uint8_t { kNone, kLog, kValidate, kSgl };
  Phase phase = kNone;
  bool validate_next = false; // the next attempt validates the logged entries
  bool force_sgl = false;
  bool pool_writes = false; // the attempt wrote the pool's data
  unsigned failures = 0;    // aborted hardware attempts of this transaction
  unsigned status = 0;      // an emulated abort's status, for begin to account
  uint64_t seen = 0;        // the commit counter the log is stamped with
  uint64_t cursor = 0;      // Validate: the next entry to match
  struct Redo {
    uintptr_t word;
    uint64_t value;
    uint8_t mask;
  };
  Redo *redo = nullptr; // the Log phase's redo log
  uint64_t redo_cap = 0, nredo = 0;
};

// Counters PTM_STATS prints for crafty (libs/crafty.cpp).
struct CraftyStats {
  std::atomic<uint64_t> aborts[htm::kKinds];
  std::atomic<uint64_t> redo_commits, validate_commits, sgl_commits,
      redo_failed, validate_failed;
};
extern CraftyStats crafty_stats;

template <class Self>
struct CraftyT : ReadsInPlace<PersistentPolicyBase<Self, IpOptions>> {
  using Base = PersistentPolicyBase<Self, IpOptions>;
  using Base::apply_frees;
  using Base::flush_allocs;
  using Eager = PersistentEagerT<IpOptions::kCoarseLog, /*Sealed=*/false>;
  using Path = htm::HtmPath;
  static constexpr bool kLastAllocTracking = IpOptions::kLastAlloc;
  // Hardware attempts of a transaction before it takes the SGL.
  static constexpr unsigned kHtmTries = 8;
  static constexpr unsigned kRedoTries = 4;

  struct alignas(64) Pending {
    std::atomic<uint64_t> order{0}; // a commit not durable yet (0: none)
  };
  alignas(64) static inline std::atomic<uint32_t> sgl{0};
  alignas(64) static inline std::atomic<uint64_t> counter{0}; // gLastRedoTS
  alignas(64) static inline std::atomic<uint32_t> slots_used{0};
  static inline Pending pending[pool::kMaxSlotCount];
  static inline thread_local CraftyThread st;

  // --- begin ---------------------------------------------------------------

  static void begin(TxThread &tx) {
    pool::enter_tx();
    pool::SlotHandle &s = pool::tls_slot;
    note_slot(s.index);
    CraftyThread &c = st;
    Path p = htm::path();
    if (tx.attempt == 1) { // a new transaction (not a re-execution)
      c.failures = 0;
      c.force_sgl = false;
      c.validate_next = false;
      c.status = 0;
    }
    for (;;) {
      if (c.status) {
        account(c, c.status);
        c.status = 0;
      }
      if (p == Path::Off || c.force_sgl || c.failures >= kHtmTries)
        return begin_sgl(tx, c, p);
      need_redo_log(c);
      if (!c.validate_next) {
        PersistentUndoLog::reset(s);
        c.pool_writes = false;
      }
      unsigned status = hw_begin(p, /*drain=*/false);
      if (status == htm::kStarted) {
        if (sgl.load(std::memory_order_relaxed) == 0) {
          c.phase =
              c.validate_next ? CraftyThread::kValidate : CraftyThread::kLog;
          c.cursor = 0;
          return;
        }
        status = explicit_abort<kCodeSgl>(p);
      }
      if (p == Path::Rtm)
        stat_add(tx.stats->aborts);
      account(c, status);
    }
  }

  // Takes the single global lock. Hardware transactions running see it
  // taken: RTM's have it in their read set and abort; the emulation's lock
  // is waited for.
  static void begin_sgl(TxThread &tx, CraftyThread &c, Path p) {
    while (sgl.exchange(1, std::memory_order_acquire))
      wait_sgl();
    if (p == Path::Emulated) {
      htm::Emulation::lock();
      htm::Emulation::unlock();
    }
    pool::SlotHandle &s = pool::tls_slot;
    PersistentUndoLog::reset(s);
    if constexpr (IpOptions::kCoarseLog)
      PersistentUndoLog::begin_coarse(s);
    tx.undo.clear();
    c.seen = counter.load(std::memory_order_acquire);
    c.validate_next = false;
    c.phase = CraftyThread::kSgl;
  }

  // --- barriers --------------------------------------------------------------

  template <class T>
  __attribute__((always_inline)) static void write(TxThread &tx, T *addr,
                                                   T value) {
    CraftyThread &c = st;
    if (__builtin_expect(c.phase == CraftyThread::kSgl, 0))
      return sgl_write(tx, addr, value);
    hw_write(tx, c, addr, &value, sizeof value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    CraftyThread &c = st;
    if (c.phase == CraftyThread::kSgl) {
      sgl_activate(tm, n);
      return Eager::write_bytes(tx, tm, priv, n);
    }
    hw_write(tx, c, tm, priv, n);
  }

  template <class T>
  __attribute__((noinline)) static void sgl_write(TxThread &tx, T *addr,
                                                  T value) {
    sgl_activate(addr, sizeof(T));
    Eager::write(tx, addr, value);
  }

  // The SGL log's header goes LOGGED with its first entry (whose fence
  // makes both durable before the first store).
  static void sgl_activate(const void *addr, size_t n) {
    pool::SlotHandle &s = pool::tls_slot;
    if (__builtin_expect(s.count != 0, 1) || !persist::is_pool_data(addr, n))
      return;
    write_header(s, st.seen + 1, 0, Path::Off);
    persist::clwb(&s.hdr->status);
  }

  // A write of [addr, addr + n) inside a hardware transaction: the Log
  // phase logs each word it touches; the Validate phase matches each with
  // the next logged entry.
  static void hw_write(TxThread &tx, CraftyThread &c, void *addr,
                       const void *src, size_t n) {
    Path p = htm::path();
    auto lo = reinterpret_cast<uintptr_t>(addr);
    uintptr_t hi = lo + n;
    pool::SlotHandle &s = pool::tls_slot;
    for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
      uint8_t mask = word_mask(word, lo, hi);
      if (c.phase == CraftyThread::kValidate) {
        if (c.cursor >= s.count)
          hw_abort<kCodeValidate>(tx, c);
        const pool::LogEntry &e = s.entries[c.cursor++];
        if (e.addr != word || uint8_t(e.meta & 0xff) != mask ||
            (!dead_stack(tx, word) && !same_bytes(word, e.data, mask)))
          hw_abort<kCodeValidate>(tx, c);
        continue;
      }
      if (__builtin_expect(s.count == s.capacity, 0))
        hw_abort<kCodeFallback>(tx, c); // the SGL path's log can spill
      pool::LogEntry &e = s.entries[s.count++];
      ++s.logged;
      if (!c.pool_writes &&
          persist::is_pool_data(reinterpret_cast<const void *>(word), 8))
        c.pool_writes = true;
      uint64_t old;
      memcpy(&old, reinterpret_cast<const void *>(word), 8);
      uint64_t meta = pool::entry_meta(mask, s.gen);
      e.addr = word;
      e.meta = meta;
      e.data = old;
      e.check = pool::entry_check(word, meta, old);
    }
    if (p == Path::Emulated)
      for (uintptr_t word = lo & ~uintptr_t(7); word < hi; word += 8) {
        uintptr_t a = word > lo ? word : lo;
        uintptr_t b = word + 8 < hi ? word + 8 : hi;
        htm::Emulation::keep(reinterpret_cast<void *>(a), unsigned(b - a));
      }
    memcpy(addr, src, n);
  }

  // --- commit ----------------------------------------------------------------

  static bool commit(TxThread &tx) {
    CraftyThread &c = st;
    switch (c.phase) {
    case CraftyThread::kSgl:
      return commit_sgl(tx, c);
    case CraftyThread::kLog:
      return commit_log(tx, c);
    case CraftyThread::kValidate:
      return commit_validate(tx, c);
    default:
      fatal("crafty: commit outside a transaction attempt");
    }
  }

  static bool commit_log(TxThread &tx, CraftyThread &c) {
    Path p = htm::path();
    pool::SlotHandle &s = pool::tls_slot;
    if (s.count == 0) { // read-only: nothing to log, apply or persist
      if (!hw_end(c, p))
        return false;
      wait_durable_below(s.index, counter.load(std::memory_order_acquire) + 1);
      return finish(c);
    }
    // Roll the writes back, newest first, collecting the redo log.
    c.nredo = 0;
    for (uint64_t i = s.count; i-- > 0;) {
      const pool::LogEntry &e = s.entries[i];
      if (dead_stack(tx, e.addr))
        continue;
      uint8_t mask = uint8_t(e.meta & 0xff);
      uint64_t now;
      memcpy(&now, reinterpret_cast<const void *>(e.addr), 8);
      c.redo[c.nredo++] = {e.addr, now, mask};
      put_bytes(p, e.addr, e.data, mask);
    }
    // The counter read inside the hardware transaction: its entries hold the
    // state after commit S and before S + 1, the order the log takes. (Read
    // before it began, a commit could slip in between and the log would
    // hold values newer than its order: recovery, undoing logs of equal
    // order in any order, could then restore that commit's writes after
    // undoing them.)
    c.seen = counter.load(std::memory_order_relaxed);
    write_header(s, c.seen + 1, s.count, p);
    if (!hw_end(c, p))
      return false;
    if (c.pool_writes) { // (else no entry matters to recovery)
      persist::flush_range(s.entries, s.count * sizeof(pool::LogEntry));
      persist::clwb(&s.hdr->status);
    }
    return redo_phase(tx, c, p);
  }

  static bool redo_phase(TxThread &tx, CraftyThread &c, Path p) {
    pool::SlotHandle &s = pool::tls_slot;
    bool done = hw_phase<kCodeCheck>(
        p, /*drain=*/c.pool_writes, [] {},
        [&] {
          if (sgl.load(std::memory_order_relaxed) != 0 ||
              counter.load(std::memory_order_relaxed) != c.seen)
            return false;
          for (uint64_t i = c.nredo; i-- > 0;) // program order
            put_bytes(p, c.redo[i].word, c.redo[i].value, c.redo[i].mask);
          publish(s, c.seen + 1, p);
          return true;
        });
    if (done) {
      crafty_stats.redo_commits.fetch_add(1, std::memory_order_relaxed);
      return durable(tx, c, c.seen + 1);
    }
    // The counter moved (or the SGL is held, or the attempts kept
    // aborting): validate.
    crafty_stats.redo_failed.fetch_add(1, std::memory_order_relaxed);
    c.validate_next = restamp(c, p);
    c.phase = CraftyThread::kNone;
    return false; // the glue rolls back (nothing to undo) and re-executes
  }

  // Before a Validate phase: the log is restamped with the counter S' as it
  // is now, in a hardware transaction that first checks that every logged
  // old value is still in memory (then the log is that of a transaction
  // about to run at S'); flushed and fenced. Restamping a log whose values
  // are stale would let recovery roll back a durable commit made since it
  // was taken. False: a value changed (or the hardware transaction kept
  // aborting): the transaction logs again.
  static bool restamp(CraftyThread &c, Path p) {
    pool::SlotHandle &s = pool::tls_slot;
    const TxThread &tx = this_thread();
    uint64_t now = 0;
    bool done = hw_phase<kCodeValidate>(
        p, /*drain=*/false,
        [&] {
          while (sgl.load(std::memory_order_acquire))
            wait_sgl();
          now = counter.load(std::memory_order_acquire);
        },
        [&] {
          if (sgl.load(std::memory_order_relaxed) != 0 ||
              counter.load(std::memory_order_relaxed) != now)
            return false;
          for (uint64_t i = 0; i < s.count; ++i) {
            const pool::LogEntry &e = s.entries[i];
            if (!dead_stack(tx, e.addr) &&
                !same_bytes(e.addr, e.data, uint8_t(e.meta & 0xff)))
              return false;
          }
          htm::store(p, &s.hdr->commit_order, now + 1);
          return true;
        });
    if (done) {
      persist::clwb(&s.hdr->status);
      persist::sfence();
      c.seen = now;
      return true;
    }
    crafty_stats.validate_failed.fetch_add(1, std::memory_order_relaxed);
    ++c.failures;
    return false;
  }

  static bool commit_validate(TxThread &tx, CraftyThread &c) {
    Path p = htm::path();
    pool::SlotHandle &s = pool::tls_slot;
    if (c.cursor != s.count)
      hw_abort<kCodeValidate>(tx, c);
    if (counter.load(std::memory_order_relaxed) != c.seen)
      hw_abort<kCodeCheck>(tx, c);
    publish(s, c.seen + 1, p);
    if (!hw_end(c, p))
      return false;
    crafty_stats.validate_commits.fetch_add(1, std::memory_order_relaxed);
    return durable(tx, c, c.seen + 1);
  }

  static bool commit_sgl(TxThread &tx, CraftyThread &c) {
    pool::SlotHandle &s = pool::tls_slot;
    apply_frees(tx);
    flush_allocs(tx);
    stat_add(tx.stats->log_entries, s.logged);
    tx.undo.clear();
    if (s.count == 0) { // nothing logged: no pool data written
      sgl.store(0, std::memory_order_release);
      wait_durable_below(s.index, counter.load(std::memory_order_acquire) + 1);
      return finish(c);
    }
    persist::sfence(); // the data (flushed at each store) are durable
    uint64_t order = c.seen + 1;
    publish(s, order, Path::Off);
    sgl.store(0, std::memory_order_release);
    crafty_stats.sgl_commits.fetch_add(1, std::memory_order_relaxed);
    return made_durable(c, order);
  }

  // The commit counter and this thread's pending commit (inside the
  // committing hardware transaction, or under the SGL).
  static void publish(pool::SlotHandle &s, uint64_t order, Path p) {
    if (p == Path::Emulated) {
      htm::Emulation::keep(&counter, 8);
      htm::Emulation::keep(&pending[s.index].order, 8);
    }
    counter.store(order, std::memory_order_relaxed);
    pending[s.index].order.store(order, std::memory_order_relaxed);
  }

  // After a hardware commit at ORDER: the written lines of the pool
  // flushed, fence; then made_durable.
  static bool durable(TxThread &tx, CraftyThread &c, uint64_t order) {
    pool::SlotHandle &s = pool::tls_slot;
    stat_add(tx.stats->log_entries, s.logged);
    if (c.pool_writes) {
      uintptr_t last = 0;
      for (uint64_t i = 0; i < s.count; ++i) {
        uintptr_t line = s.entries[i].addr & ~uintptr_t(63);
        if (line != last &&
            persist::is_pool_data(reinterpret_cast<const void *>(line), 1))
          persist::clwb(reinterpret_cast<const void *>(line));
        last = line;
      }
      persist::sfence();
    }
    return made_durable(c, order);
  }

  // The commit at ORDER, its data durable, waits for every commit with a
  // smaller order to be durable (it may have read their writes), then makes
  // ORDER its slot's floor (recovery leaves every log at or below the
  // largest floor in place). Without pool writes there is no floor to write.
  static bool made_durable(CraftyThread &c, uint64_t order) {
    pool::SlotHandle &s = pool::tls_slot;
    wait_durable_below(s.index, order);
    if (c.pool_writes || c.phase == CraftyThread::kSgl) {
      s.hdr->floor = order;
      persist::clwb(&s.hdr->floor);
      persist::sfence();
    }
    // (The global lock's log, extended: superseded by that floor, recovery
    // never reads it again.)
    if (__builtin_expect(s.ext != nullptr, 0))
      LogExtension::release(s);
    pending[s.index].order.store(0, std::memory_order_release);
    return finish(c);
  }

  // Waits until no other thread has a commit pending (not durable yet) with
  // an order below ORDER. A transaction returns only once everything it
  // may have read is durable, read-only ones included: a commit's writes
  // are visible before it is durable.
  static void wait_durable_below(uint32_t me, uint64_t order) {
    uint32_t n = slots_used.load(std::memory_order_acquire);
    for (uint32_t u = 0; u < n; ++u) {
      if (u == me)
        continue;
      unsigned spins = 0;
      for (;;) {
        uint64_t o = pending[u].order.load(std::memory_order_acquire);
        if (o == 0 || o >= order)
          break;
        pause(++spins);
      }
    }
  }

  static bool finish(CraftyThread &c) {
    c.phase = CraftyThread::kNone;
    c.failures = 0;
    c.validate_next = false;
    c.force_sgl = false;
    pool::leave_tx(pool::tls_slot);
    return true;
  }

  // --- aborts ----------------------------------------------------------------

  static void rollback(TxThread &tx) {
    CraftyThread &c = st;
    switch (c.phase) {
    case CraftyThread::kSgl:
      tx.undo.rollback(tx.stack_lo, tx.stack_mark, &tx.kept);
      PersistentUndoLog::rollback(pool::tls_slot, /*sealed=*/true);
      sgl.store(0, std::memory_order_release);
      break;
    case CraftyThread::kLog:
    case CraftyThread::kValidate:
      // The glue aborts a hardware attempt (ptm_restart, an injected
      // abort, an exception leaving it).
      explicit_abort<kCodeRestart>(htm::path());
      c.validate_next = false;
      break;
    default: // aborted already (emulation), or a Validate to come
      break;
    }
    c.phase = CraftyThread::kNone;
    pool::leave_tx(pool::tls_slot);
  }

  // An allocation, a free or an exception inside a hardware transaction:
  // the transaction runs again under the SGL (an RTM exception cannot be
  // unwound out of a hardware transaction and rolled back after it).
  __attribute__((always_inline)) static void on_event(TxThread &tx, Event e,
                                                      uintptr_t) {
    if (e == Event::AllocCall || e == Event::FreeCall)
      if (st.phase == CraftyThread::kLog || st.phase == CraftyThread::kValidate)
        hw_abort<kCodeFallback>(tx, st);
    if (e == Event::UnwindRollback && htm::path() == Path::Rtm)
      if (st.phase == CraftyThread::kLog || st.phase == CraftyThread::kValidate)
        htm::rtm_abort<kCodeFallback>();
  }

  // Aborts the running hardware transaction with CODE: RTM returns to its
  // xbegin; the emulation rolls back and unwinds to the checkpoint.
  template <unsigned char Code>
  [[noreturn]] __attribute__((noinline)) static void hw_abort(TxThread &tx,
                                                              CraftyThread &c) {
    c.status = explicit_abort<Code>(htm::path());
    c.phase = CraftyThread::kNone;
    tx_conflict<Self>(tx, AbortCause::Serialize);
  }

  // An aborted hardware attempt: count it, decide what the next one does.
  static void count_abort(unsigned status) {
    crafty_stats.aborts[htm::abort_kind(status)].fetch_add(
        1, std::memory_order_relaxed);
  }

  static void account(CraftyThread &c, unsigned status) {
    count_abort(status);
    if (!(status & htm::kExplicit)) {
      ++c.failures;
      if ((status & htm::kCapacity) && !(status & htm::kRetry))
        c.force_sgl = true;
      return;
    }
    switch (htm::explicit_code(status)) {
    case kCodeSgl:
      ++c.failures;
      while (sgl.load(std::memory_order_acquire))
        wait_sgl();
      break;
    case kCodeFallback:
      c.force_sgl = true;
      break;
    case kCodeRestart:
      c.validate_next = false;
      break;
    default: // kCodeValidate, kCodeCheck: log again
      if (c.validate_next)
        crafty_stats.validate_failed.fetch_add(1, std::memory_order_relaxed);
      c.validate_next = false;
      ++c.failures;
    }
  }

  // --- helpers ---------------------------------------------------------------

  // Begins a hardware transaction. DRAIN: its stores must not reach NVM
  // before the flushes issued before it. The emulation fences first. On RTM
  // the region's commit orders them, as a locked instruction does, and the
  // region's stores reach memory only then: the crash simulator is told of
  // that fence here, before them (told after the commit, it would see the
  // stores while it still counts the flushes pending).
  static unsigned hw_begin(Path p, bool drain) {
    if (p == Path::Rtm) {
      if (drain)
        persist::fenced_by_rmw();
      return htm::rtm_begin();
    }
    htm::Emulation::begin(drain);
    return htm::kStarted;
  }

  // Commits the running hardware transaction: htm::kStarted, or the status
  // of the emulation's abort (an RTM abort resumes at rtm_begin instead).
  static unsigned hw_commit(Path p) {
    if (p == Path::Rtm) {
      htm::rtm_end();
      return htm::kStarted;
    }
    return htm::Emulation::end();
  }

  // Aborts the running hardware transaction with CODE where the caller goes
  // on after it: RTM returns to its xbegin; the emulation's abort status is
  // returned.
  template <unsigned char Code> static unsigned explicit_abort(Path p) {
    if (p == Path::Rtm)
      htm::rtm_abort<Code>();
    htm::Emulation::abort();
    return htm::kExplicit | unsigned(Code) << 24;
  }

  // A phase after the Log phase (Redo, restamp): a hardware transaction,
  // tried up to kRedoTries times. PREPARE runs before each attempt; BODY,
  // inside it, returns whether the phase may commit (its stores made), or
  // false to abort it with CODE, which ends the tries (the state it checks
  // has moved on). True: an attempt committed.
  template <unsigned char Code, class Prepare, class Body>
  static bool hw_phase(Path p, bool drain, Prepare prepare, Body body) {
    for (unsigned tries = 0; tries < kRedoTries; ++tries) {
      prepare();
      unsigned status = hw_begin(p, drain);
      if (status == htm::kStarted)
        status = body() ? hw_commit(p) : explicit_abort<Code>(p);
      if (status == htm::kStarted)
        return true;
      count_abort(status);
      if (status & htm::kExplicit)
        break;
    }
    return false;
  }

  // hw_commit, or false with the abort's status kept for begin: the attempt
  // is to run again.
  static bool hw_end(CraftyThread &c, Path p) {
    unsigned status = hw_commit(p);
    if (status == htm::kStarted)
      return true;
    c.status = status;
    c.phase = CraftyThread::kNone;
    return false;
  }

  static void write_header(pool::SlotHandle &s, uint64_t order, uint64_t n,
                           Path p) {
    uint64_t status = pool::slot_status(pool::kUndoLogged, s.gen);
    htm::store(p, &s.hdr->status, status);
    htm::store(p, &s.hdr->commit_order, order);
    htm::store(p, &s.hdr->redo_count, n);
  }

  // The bytes of MASK in the word at WORD set from VALUE.
  static void put_bytes(Path p, uintptr_t word, uint64_t value, uint8_t mask) {
    auto *w = reinterpret_cast<unsigned char *>(word);
    if (mask == 0xff)
      return htm::store(p, reinterpret_cast<uint64_t *>(w), value);
    unsigned char bytes[8];
    memcpy(bytes, &value, 8);
    for (unsigned i = 0; i < 8; ++i)
      if (mask & (1u << i))
        htm::store(p, w + i, bytes[i]);
  }

  static bool same_bytes(uintptr_t word, uint64_t value, uint8_t mask) {
    uint64_t now;
    memcpy(&now, reinterpret_cast<const void *>(word), 8);
    uint64_t m = 0;
    for (unsigned i = 0; i < 8; ++i)
      if (mask & (1u << i))
        m |= uint64_t(0xff) << (8 * i);
    return ((now ^ value) & m) == 0;
  }

  // A word in a stack frame below the transaction's (dead at its commit).
  static bool dead_stack(const TxThread &tx, uintptr_t word) {
    return word >= reinterpret_cast<uintptr_t>(tx.stack_lo) &&
           word < reinterpret_cast<uintptr_t>(tx.stack_mark);
  }

  static void note_slot(uint32_t index) {
    uint32_t n = slots_used.load(std::memory_order_relaxed);
    while (n <= index && !slots_used.compare_exchange_weak(
                             n, index + 1, std::memory_order_acq_rel))
      ;
  }

  // The redo log of the Log phase, as large as the slot's log (a hardware
  // transaction cannot grow it); freed when the thread exits.
  static void need_redo_log(CraftyThread &c) {
    if (__builtin_expect(c.redo != nullptr, 1))
      return;
    struct Owner {
      ~Owner() {
        free(st.redo);
        st.redo = nullptr;
      }
    };
    static thread_local Owner owner;
    (void)owner;
    c.redo_cap = pool::tls_slot.slot_capacity;
    c.redo = static_cast<CraftyThread::Redo *>(
        calloc(c.redo_cap, sizeof(CraftyThread::Redo)));
    if (!c.redo)
      fatal("crafty: out of memory for a redo log of %llu entries",
            (unsigned long long)c.redo_cap);
  }

  static void wait_sgl() {
    unsigned spins = 0;
    while (sgl.load(std::memory_order_acquire))
      pause(++spins);
  }
  static void pause(unsigned spins) {
    if (spins % 256 == 0)
      sched_yield();
    else
      __builtin_ia32_pause();
  }
};

} // namespace ptm

#endif // PTM_LIBS_CRAFTY_POLICY_H
