//===- tlrw_policy.h - readers/writer bytelocks, undo log -------*- C++ -*-===//
//
// TLRW (Dice and Shavit): every granule maps to a bytelock: a writer field
// (owner slot + 1) and one reader byte per thread slot (threads with a slot
// past the bytes use a shared counter). A read sets its byte, fences, and
// proceeds if no writer holds the lock (else backs off, bounded, then
// aborts); a write takes the writer field and waits for the readers to leave
// (bounded, then aborts), then writes in place with an undo log. Reads need
// no validation, commit just releases: no quiescence is needed, privatization
// is safe by locking.
//
//   made of: ByteLock table + UndoLog + Hourglass; LOGGING (stm_logging.h)
//            says what a write logs and what commit and abort make durable
//            (p_tlrw: Listing 1's eager sequence, before the locks go; no
//            commit order is needed: a location is in at most one active
//            undo log, its writer's, which holds the lock until idle)
//
//===----------------------------------------------------------------------===//
#ifndef PTM_LIBS_TLRW_POLICY_H
#define PTM_LIBS_TLRW_POLICY_H

#include "libs/stm_logging.h"
#include "runtime/base/grow_buffer.h"
#include "runtime/base/hot_cold.h"

#include <atomic>

namespace ptm {

template <class Self, template <class> class Logging>
struct TlrwT : Logging<Self> {
  using Log = Logging<Self>;
  using Log::serial;
  using Log::serial_read;
  static constexpr unsigned kReaderBytes = 56;
  static constexpr unsigned kSpins = 256;

  struct alignas(64) ByteLock {
    std::atomic<uint32_t> owner;    // 0 or slot + 1
    std::atomic<uint32_t> overflow; // readers with slot >= kReaderBytes
    uint8_t readers[kReaderBytes];  // byte per slot, read as words
  };
  static constexpr unsigned kBits = 16;
  static inline ByteLock table[1u << kBits];
  // One lock per block of the log granularity (as the orecs, orec_table.h).
  static constexpr uintptr_t G = Log::kConflictGranule;

  static PTM_INLINE ByteLock &lock_of(uintptr_t a) {
    return table[(a / G) & ((1u << kBits) - 1)];
  }

  static inline thread_local GrowBuffer<ByteLock *> read_locks;
  static inline thread_local GrowBuffer<ByteLock *> write_locks;

  static void free_thread() {
    read_locks.release();
    write_locks.release();
  }

  static uint32_t me() { return static_cast<uint32_t>(stm_thread.slot) + 1; }

  static bool holds_read(ByteLock &l) {
    unsigned s = static_cast<unsigned>(stm_thread.slot);
    if (s < kReaderBytes)
      return __atomic_load_n(&l.readers[s], __ATOMIC_RELAXED) != 0;
    for (size_t i = 0; i < read_locks.size; ++i)
      if (read_locks[i] == &l)
        return true;
    return false;
  }
  static void set_reader(ByteLock &l, bool on) {
    unsigned s = static_cast<unsigned>(stm_thread.slot);
    if (s < kReaderBytes)
      __atomic_store_n(&l.readers[s], on ? 1 : 0,
                       on ? __ATOMIC_SEQ_CST : __ATOMIC_RELEASE);
    else if (on)
      l.overflow.fetch_add(1, std::memory_order_seq_cst);
    else
      l.overflow.fetch_sub(1, std::memory_order_release);
  }
  // Readers other than us.
  static bool other_readers(ByteLock &l) {
    typedef uint64_t __attribute__((may_alias)) word_t;
    const auto *words = reinterpret_cast<const word_t *>(l.readers);
    unsigned s = static_cast<unsigned>(stm_thread.slot);
    for (unsigned w = 0; w < kReaderBytes / 8; ++w) {
      uint64_t v = __atomic_load_n(&words[w], __ATOMIC_ACQUIRE);
      if (s < kReaderBytes && s / 8 == w)
        v &= ~(0xffull << (8 * (s % 8)));
      if (v)
        return true;
    }
    uint32_t mine = s >= kReaderBytes && holds_read(l) ? 1 : 0; // our own count
    return l.overflow.load(std::memory_order_acquire) > mine;
  }

  static void acquire_read(TxThread &tx, ByteLock &l) {
    for (unsigned spins = 0;;) {
      set_reader(l, true);
      uint32_t o = l.owner.load(std::memory_order_seq_cst);
      if (o == 0) {
        read_locks.push_back(&l);
        return;
      }
      set_reader(l, false);
      while (l.owner.load(std::memory_order_acquire) != 0) {
        if (++spins > kSpins)
          tx_conflict<Self>(tx, AbortCause::ReadConflict);
        spin_pause(spins);
      }
    }
  }

  // True if it took the lock (and so fenced), false if we held it.
  static bool acquire_write(TxThread &tx, ByteLock &l) {
    uint32_t id = me();
    if (l.owner.load(std::memory_order_relaxed) == id)
      return false;
    for (unsigned spins = 0;;) {
      uint32_t expected = 0;
      if (l.owner.load(std::memory_order_relaxed) == 0 &&
          l.owner.compare_exchange_weak(expected, id))
        break;
      if (++spins > kSpins)
        tx_conflict<Self>(tx, AbortCause::WriteConflict);
      spin_pause(spins);
    }
    write_locks.push_back(&l);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    for (unsigned spins = 0; other_readers(l);) {
      if (++spins > kSpins)
        tx_conflict<Self>(tx, AbortCause::WriteConflict);
      spin_pause(spins);
    }
    return true;
  }

  static void release_all() {
    for (size_t i = 0; i < write_locks.size; ++i)
      write_locks[i]->owner.store(0, std::memory_order_release);
    write_locks.clear();
    for (size_t i = 0; i < read_locks.size; ++i)
      set_reader(*read_locks[i], false);
    read_locks.clear();
  }

  static void start(TxThread &tx) {
    Log::eager_begin(tx);
    read_locks.clear();
    write_locks.clear();
  }
  static void begin(TxThread &tx) {
    Log::attempt_begin(tx);
    stm_thread.cleanup = free_thread;
    Hourglass::enter(tx, stm_thread, Log::attempt_leave, Log::attempt_reenter);
    start(tx);
  }
  static void begin_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable)
      return Log::begin_irrevocable(tx);
    stm_thread.cleanup = free_thread;
    Hourglass::enter_serial(tx, stm_thread);
    start(tx);
  }
  static bool become_irrevocable(TxThread &tx) {
    if constexpr (!Log::kIrrevocable)
      return false;
    // Reads are locked: nothing to validate.
    Hourglass::serialize<Self>(tx, stm_thread, [](TxThread &) { return true; });
    return true;
  }

  static bool commit(TxThread &tx) {
    Log::commit_begin(tx);
    Log::eager_commit(tx);
    release_all();
    Hourglass::leave(stm_thread);
    Log::attempt_end(tx);
    return true;
  }

  static void rollback(TxThread &tx) {
    Log::eager_rollback(tx);
    release_all();
    Hourglass::leave_after_abort(stm_thread);
    Log::attempt_end(tx);
  }

  // Both return true if they took a lock (a fence: fence pipelining, paper
  // IV-C, lets the logging layer's deferred store ride on it).
  static bool lock_for_read(TxThread &tx, uintptr_t a, size_t n) {
    uint32_t id = me();
    bool fenced = false;
    for (uintptr_t b = a & ~(G - 1); b < a + n; b += G) {
      ByteLock &l = lock_of(b);
      if (l.owner.load(std::memory_order_relaxed) != id && !holds_read(l)) {
        acquire_read(tx, l);
        fenced = true;
      }
    }
    return fenced;
  }

  // The inline fast path of lock_for_read for one block's lock L: held
  // already (written or read), or read-locked at once with a reader byte
  // and room in the read set. False: nothing changed (the byte is clear).
  static PTM_INLINE bool try_lock_for_read(ByteLock &l) {
    unsigned s = static_cast<unsigned>(stm_thread.slot);
    if (l.owner.load(std::memory_order_relaxed) == s + 1)
      return true;
    if (s >= kReaderBytes)
      return false;
    if (__atomic_load_n(&l.readers[s], __ATOMIC_RELAXED) != 0)
      return true;
    if (!read_locks.has_room())
      return false;
    __atomic_store_n(&l.readers[s], 1, __ATOMIC_SEQ_CST);
    if (__builtin_expect(l.owner.load(std::memory_order_seq_cst) != 0, 0)) {
      __atomic_store_n(&l.readers[s], 0, __ATOMIC_RELEASE);
      return false;
    }
    read_locks.push_back_in_room(&l);
    return true;
  }

  static void read_bytes(TxThread &tx, void *priv, const void *tm, size_t n) {
    if (!serial()) {
      bool fenced = lock_for_read(tx, reinterpret_cast<uintptr_t>(tm), n);
      if constexpr (Log::kFencePipeline)
        Log::pipeline_read(tx, fenced, tm, n);
    }
    memcpy(priv, tm, n);
  }

  // Fast path: one granule, no pipelined store pending (whatever the read
  // then owes it is the slow path's), its lock held or read-locked at once.
  template <class T> PTM_INLINE static T read(TxThread &tx, const T *addr) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    bool pending = false;
    if constexpr (Log::kFencePipeline)
      pending = Log::pending_store.addr != nullptr;
    if (__builtin_expect(!serial() && !pending &&
                             in_one_granule(a, sizeof(T)) &&
                             try_lock_for_read(lock_of(a)),
                         1))
      return serial_read(addr);
    return read_slow(tx, addr);
  }
  template <class T> PTM_SLOW static T read_slow(TxThread &tx, const T *addr) {
    if (!serial()) {
      bool fenced =
          lock_for_read(tx, reinterpret_cast<uintptr_t>(addr), sizeof(T));
      if constexpr (Log::kFencePipeline)
        Log::pipeline_read(tx, fenced, addr, sizeof(T));
    }
    return serial_read(addr);
  }

  static bool lock_for_write(TxThread &tx, uintptr_t a, size_t n) {
    bool fenced = false;
    AccessSpan sp = Log::conflict_span(a, n);
    for (uintptr_t b = sp.lo & ~(G - 1); b < sp.lo + sp.n; b += G)
      fenced |= acquire_write(tx, lock_of(b));
    return fenced;
  }

  // Fast path: one granule (its conflict span is one block) whose write
  // lock we hold. The first write of a block takes the lock (and waits for
  // its readers): out of line.
  template <class T>
  PTM_INLINE static void write(TxThread &tx, T *addr, T value) {
    auto a = reinterpret_cast<uintptr_t>(addr);
    if (__builtin_expect(!serial() && in_one_granule(a, sizeof(T)) &&
                             lock_of(a).owner.load(std::memory_order_relaxed) ==
                                 me(),
                         1)) {
      if constexpr (Log::kFencePipeline)
        Log::pipelined_write(tx, addr, value, false);
      else
        Log::write_in_place(tx, addr, value);
      return;
    }
    write_slow(tx, addr, value);
  }
  template <class T>
  PTM_OUTLINE static void write_slow(TxThread &tx, T *addr, T value) {
    bool fenced = false;
    if (!serial())
      fenced = lock_for_write(tx, reinterpret_cast<uintptr_t>(addr), sizeof(T));
    if constexpr (Log::kFencePipeline)
      Log::pipelined_write(tx, addr, value, fenced);
    else
      Log::write_in_place(tx, addr, value);
  }

  static void write_bytes(TxThread &tx, void *tm, const void *priv, size_t n) {
    bool fenced = false;
    if (!serial())
      fenced = lock_for_write(tx, reinterpret_cast<uintptr_t>(tm), n);
    if constexpr (Log::kFencePipeline)
      Log::pipeline_drain(fenced);
    Log::write_bytes_in_place(tx, tm, priv, n);
  }
};

struct TlrwPolicy : TlrwT<TlrwPolicy, StmLogging> {};

} // namespace ptm

#endif // PTM_LIBS_TLRW_POLICY_H
