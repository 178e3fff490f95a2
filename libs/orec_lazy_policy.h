//===- orec_lazy_policy.h - commit-time locking, redo log (TL2) -*- C++ -*-===//
//
// orec_lazy (TL2-style): writes go to a redo log; a read looks in the redo
// log first, else reads memory between two loads of the granule's orec and
// extends the snapshot when the version is newer. Commit: lock the orecs of
// the write set (busy: abort; bounded spin), take a commit time, validate the
// read set unless nobody committed since the snapshot, write back, release
// with the commit time, then quiesce (privatization safety: a doomed
// writer's write-back must not land on memory the committer privatized).
//
// Solo mode (Log::kSolo: the gp_ and ip_ libraries, PTM_OPT_SOLO): an
// attempt of the thread that holds the solo ownership (solo_owner.h) runs
// alone, so its reads are plain loads (the redo log still first) checked
// against the ownership word, the fill of a chunk entry a plain copy, and
// its commit locks, validates and releases nothing and takes the next
// commit time with a plain store; a revoked ownership aborts it.
//
//   made of: OrecTx (orec_table.h) + RedoLog + GlobalClock + Hourglass +
//            Quiescence + SoloOwner; LOGGING (stm_logging.h) holds the write
//            set and writes it back (p_orec_lazy: in the pool slot, Listing
//            1's lazy commit with the commit time as the commit order)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_OREC_LAZY_POLICY_H
#define PTM_LIBS_OREC_LAZY_POLICY_H

#include "libs/orec_redo_core.h"
#include "libs/stm_logging.h"
#include "runtime/base/hot_cold.h"
#include "runtime/stm/orec_table.h"
#include "runtime/stm/solo_owner.h"

namespace ptm {

template <class Self, template <class> class Logging>
struct OrecLazyT : OrecRedoCore<Self, Logging> {
  using Core = OrecRedoCore<Self, Logging>;
  using Log = typename Core::Log;
  using Core::G;
  using Core::ot;
  using Core::redo;
  using Core::serial;
  using Core::serial_read;

  static constexpr bool kSolo = Log::kSolo;

  PTM_INLINE static bool enter_solo(StmThread &st) {
    return kSolo && SoloOwner::enter(st);
  }
  static void admit(StmThread &st) {
    if constexpr (kSolo)
      st.solo = SoloOwner::admit(st) && !st.serial;
  }
  static void free_thread() {
    if constexpr (kSolo)
      SoloOwner::resign(stm_thread);
    Core::free_thread();
  }
  // The attempt runs alone (solo mode).
  PTM_INLINE static bool solo() { return kSolo && stm_thread.solo; }

  // (the read-only attempt: RedoCore::read_only, the glue's fast commit)
  static constexpr bool kReadOnlyFastCommit = true;
  static bool commit(TxThread &tx) {
    Log::commit_begin(tx);
    if (redo.empty())
      return Core::commit_read_only(tx);
    Log::redo_announce(tx);
    if (solo())
      return commit_solo(tx);
    if (!lock_writes(tx))
      return false;
    uint64_t time = GlobalClock::tick();
    if (time != ot.start + 1 && !ot.validate())
      return false;
    return Core::publish(tx, time);
  }

  // Nobody else runs an attempt, nor takes a commit time: unless the
  // ownership was revoked, which aborts the attempt (its reads were not
  // recorded); a revoker waits for the write-back.
  static PTM_OUTLINE bool commit_solo(TxThread &tx) {
    if (!SoloOwner::begin_write_back(stm_thread))
      return false;
    stat_add(tx.stats->solo_commits);
    Log::redo_commit(tx, redo, GlobalClock::tick_alone());
    SoloOwner::end_write_back(stm_thread);
    return Core::end_commit(tx, false);
  }
  // A solo read found the ownership revoked.
  [[noreturn]] static PTM_SLOW void solo_lost(TxThread &tx) {
    tx_conflict<Self>(tx, AbortCause::Validation);
  }

  // Locks the orecs of the write set (busy: abort); false if one has a
  // version the snapshot cannot be extended to.
  static bool lock_writes(TxThread &tx) {
    for (size_t i = 0; i < redo.size(); ++i) {
      // (coarse-grained logging: an entry is a chunk, locked whole)
      AccessSpan sp = Log::conflict_span(redo.granule(i), 1);
      for (uintptr_t b = sp.lo & ~(G - 1); b < sp.lo + sp.n; b += G) {
        auto r = ot.lock(b);
        if (r == OrecTx<G>::LockResult::Busy)
          tx_conflict<Self>(tx, AbortCause::WriteConflict);
        if (r == OrecTx<G>::LockResult::Stale)
          return false;
      }
    }
    return true;
  }

  static void rollback(TxThread &tx) {
    Log::undo_writes(tx);
    ot.release_all_unchanged();
    Core::end_rollback(tx);
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (serial())
      return (void)memcpy(priv, tm, n);
    if (n == G && read_whole_block(priv, reinterpret_cast<uintptr_t>(tm)))
      return;
    auto *d = static_cast<unsigned char *>(priv);
    for_each_block<G>(reinterpret_cast<uintptr_t>(tm), n,
                      [&](uintptr_t a, size_t k, size_t at) {
                        bool logged = redo.may_overlap(a, k);
                        if (logged && redo.overlay(d + at, a, k))
                          return; // every byte written by this transaction
                        ot.template read_piece<Self>(tx, d + at, a, k);
                        if (logged)
                          redo.overlay(d + at, a, k);
                      });
    if (solo() && !SoloOwner::still_held(stm_thread))
      solo_lost(tx);
  }

  // A whole G-byte block at A that this transaction has not written, read
  // into PRIV: solo, one copy checked against the ownership word; else
  // try_read's one orec check and one copy. False: PRIV's bytes are no
  // consistent read (a solo attempt's ownership is lost, or read_piece must
  // do the read).
  struct Block {
    unsigned char bytes[G];
  };
  PTM_INLINE static bool read_unlogged_block(void *priv, uintptr_t a) {
    if (solo()) {
      racy_copy(priv, reinterpret_cast<const void *>(a), G);
      return SoloOwner::still_held(stm_thread);
    }
    return ot.template try_read<false>(*static_cast<Block *>(priv), a);
  }

  // The common case of read_bytes for a whole G-byte block that this
  // transaction has not written (read_unlogged_block) instead of
  // for_each_block and read_piece. False: read_bytes does the read (and a
  // solo attempt that lost its ownership aborts there).
  static bool read_whole_block(void *priv, uintptr_t a) {
    if ((a & (G - 1)) != 0 || redo.may_overlap(a, G))
      return false;
    return read_unlogged_block(priv, a);
  }

  // RedoCore::fill_chunk: a chunk that is one orec's block (orec
  // granularity = log granularity) and has no log entry needs neither
  // read_bytes' split into blocks nor read_whole_block's overlap test.
  PTM_INLINE static void fill_chunk(void *priv, uintptr_t a, size_t n) {
    if (n == G && (a & (G - 1)) == 0 && !serial()) {
      if (__builtin_expect(read_unlogged_block(priv, a), 1))
        return;
      if (solo())
        solo_lost(this_thread());
    }
    read_bytes(this_thread(), priv, reinterpret_cast<const void *>(a), n);
  }

  // With last-allocation tracking, an access to a block the attempt
  // allocated is left to the slow paths: a fast read returns what a plain
  // load would (the block is never logged, no other transaction writes it),
  // at the cost of a read-set entry; a write finds no redo entry for it
  // (RedoCore's write_slow stores it in place). Every other access saves the
  // test.
  static constexpr bool kLastAllocLate = true;

  // Fast path: one granule that this transaction has not written (the redo
  // log is not searched while it is empty, and a miss in its summary is
  // enough otherwise), its orec readable, or no orec needed (solo: tested
  // first; a solo attempt is never serial, docs/algorithms.md "Solo mode").
  // Anything else is the slow path's.
  template <class T> PTM_INLINE static T read(TxThread &tx, const T *addr) {
    T value;
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (solo()) {
      if (__builtin_expect(in_one_granule(a, sizeof(T)) &&
                               !redo.may_contain(granule_of(a)),
                           1)) {
        racy_copy(&value, addr, sizeof(T));
        if (__builtin_expect(SoloOwner::still_held(stm_thread), 1))
          return value;
        solo_lost(tx);
      }
    } else if (__builtin_expect(!serial() && in_one_granule(a, sizeof(T)) &&
                                    !redo.may_contain(granule_of(a)) &&
                                    ot.template try_read<false>(value, a),
                                1)) {
      return value;
    }
    return read_slow(tx, addr);
  }
  // (read-after-write: the log alone when it has every byte, looked at
  // first: a block the attempt allocated has no entry, its bytes are stored
  // in place (write_slow, the glue's store_bytes) and its frees wait for the
  // commit)
  template <class T> PTM_SLOW static T read_slow(TxThread &tx, const T *addr) {
    T value;
    if (serial())
      return serial_read(addr);
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (in_one_granule(a, sizeof(T)) && redo.try_get(a, value))
      return value;
    if (Core::kLastAllocTracking && in_tx_alloc(tx, addr, sizeof value)) {
      memcpy(&value, addr, sizeof value);
      return value;
    }
    read_bytes(tx, &value, addr, sizeof(T));
    return value;
  }

  // Writes lock nothing before commit.
  PTM_INLINE static void before_write(TxThread &, uintptr_t, size_t) {}
  PTM_INLINE static bool try_before_write(TxThread &, uintptr_t, size_t) {
    return true;
  }
};

struct OrecLazyPolicy : OrecLazyT<OrecLazyPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_OREC_LAZY_POLICY_H
