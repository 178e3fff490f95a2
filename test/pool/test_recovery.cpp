//===- test_recovery.cpp - recovery of synthetic slot logs ----------------===//
//
// A pool is prepared with known data; then slots are written by hand:
//   slot 3  undo-active: 4 valid entries (old values of words 0..3, memory
//           holds new ones), a torn 5th entry, an older generation's entry
//   slot 7  redo-committed, commit order 2: word 10 = 2, low half of word 12
//   slot 2  redo-committed, commit order 1: word 10 = 1, word 11 = 11
//   slot 5  redo-sealed, commit order 3, whole: word 11 = 33, word 13 = 13
//   slot 6  redo-sealed, commit order 4, torn (an entry of an older
//           generation): discarded
// Recovery must restore words 0..3, leave word 4 (torn entry), replay in
// commit order (word 10 = 2), apply byte masks, mark every slot idle; it is
// idempotent: cut after k entries (a crash during recovery) and run again,
// for every k, gives the same memory. A damaged committed entry is refused.
// Finally ptm_open itself recovers the hand-made state.
//
//===----------------------------------------------------------------------===//

#include "test/pool/mapped_pool.h"

#include <cstring>
#include <vector>

using namespace ptm::pool;

static constexpr int kWords = 16;

struct Fixture : MappedPool {
  uint64_t *words; // the root object
  Fixture(const std::string &path, uint64_t *root)
      : MappedPool(path, /*writable=*/true), words(root) {}
};

static void put(LogEntry &e, uint64_t *addr, uint8_t mask, uint64_t gen,
                uint64_t data) {
  e.addr = reinterpret_cast<uint64_t>(addr);
  e.meta = entry_meta(mask, gen);
  e.data = data;
  e.check = entry_check(e.addr, e.meta, e.data);
}

// Marks SLOT as a committed redo log in STATE (redo-committed or
// redo-sealed) of generation GEN, with commit ORDER and COUNT entries.
static void redo_slot(Fixture &f, uint32_t slot, SlotState state, uint64_t gen,
                      uint64_t order, uint64_t count) {
  SlotHeader *h = f.view.slot(slot);
  h->redo_count = count;
  h->commit_order = order;
  h->status = slot_status(state, gen);
}

// Writes the synthetic crash state into the mapped pool.
static void prepare(Fixture &f) {
  uint64_t *w = f.words;
  for (int i = 0; i < kWords; ++i)
    w[i] = 900 + i;
  // slot 3: undo-active, generation 5.
  SlotHeader *s3 = f.view.slot(3);
  LogEntry *e3 = f.view.entries(3);
  s3->status = slot_status(kUndoActive, 5);
  for (int i = 0; i < 4; ++i)
    put(e3[i], &w[i], 0xff, 5, 100 + i);
  put(e3[4], &w[4], 0xff, 5, 104);
  e3[4].data ^= 1;                 // torn: the check no longer matches
  put(e3[5], &w[5], 0xff, 4, 105); // an older transaction's entry
  // slot 7: redo-committed, generation 9, order 2.
  LogEntry *e7 = f.view.entries(7);
  put(e7[0], &w[10], 0xff, 9, 2);
  put(e7[1], &w[12], 0x0f, 9, 0xaaaaaaaaaaaaaaaaull);
  redo_slot(f, 7, kRedoCommitted, 9, 2, 2);
  // slot 2: redo-committed, generation 1, order 1.
  LogEntry *e2 = f.view.entries(2);
  put(e2[0], &w[10], 0xff, 1, 1);
  put(e2[1], &w[11], 0xff, 1, 11);
  redo_slot(f, 2, kRedoCommitted, 1, 1, 2);
  // slot 5: redo-sealed, generation 6, order 3, complete: replayed last.
  LogEntry *e5 = f.view.entries(5);
  put(e5[0], &w[11], 0xff, 6, 33);
  put(e5[1], &w[13], 0xff, 6, 13);
  redo_slot(f, 5, kRedoSealed, 6, 3, 2);
  // slot 6: redo-sealed, generation 8, order 4, torn (its second entry is
  // the previous transaction's): discarded, words 14 and 15 untouched.
  LogEntry *e6 = f.view.entries(6);
  put(e6[0], &w[14], 0xff, 8, 44);
  put(e6[1], &w[15], 0xff, 7, 55);
  redo_slot(f, 6, kRedoSealed, 8, 4, 2);
}

static std::vector<uint64_t> expected() {
  std::vector<uint64_t> v(kWords);
  for (int i = 0; i < kWords; ++i)
    v[i] = 900 + i;
  for (int i = 0; i < 4; ++i)
    v[i] = 100 + i;
  v[10] = 2;
  v[11] = 33;
  v[13] = 13;
  v[12] = (uint64_t(912) & ~0xffffffffull) | 0xaaaaaaaaull;
  return v;
}

static void check_recovered(Fixture &f, const char *what) {
  std::vector<uint64_t> want = expected();
  for (int i = 0; i < kWords; ++i)
    if (f.words[i] != want[i]) {
      fprintf(stderr, "%s: word %d is %llu, expected %llu\n", what, i,
              (unsigned long long)f.words[i], (unsigned long long)want[i]);
      ++check_failures;
    }
  for (uint32_t i = 0; i < f.view.header.slot_count; ++i)
    CHECK_EQ(status_state(f.view.slot(i)->status), kIdle);
}

int main() {
  std::string path = temp_pool_path("recovery");
  CHECK_EQ(ptm_open(path.c_str(), 32 << 20), 0);
  auto *root = static_cast<uint64_t *>(ptm_root(kWords * 8));
  CHECK(root != nullptr);
  ptm_close();

  Fixture f(path, root);

  // What a scan sees.
  prepare(f);
  std::vector<SlotScan> pend = pending_slots(f.view);
  CHECK_EQ(pend.size(), 5u);
  SlotScan s3 = scan_slot(f.view, 3);
  CHECK_EQ(s3.state, kUndoActive);
  CHECK_EQ(s3.entries, 4u); // the torn entry ends the log
  CHECK(!s3.damaged);
  SlotScan s5 = scan_slot(f.view, 5), s6 = scan_slot(f.view, 6);
  CHECK(!s5.torn && !s5.damaged);
  CHECK_EQ(s5.entries, 2u);
  CHECK(s6.torn && !s6.damaged);
  CHECK(strstr(s6.problem, "sealed commit torn at entry 1") != nullptr);

  // One full recovery, then a second one (nothing left to do).
  RecoveryStats st;
  CHECK_EQ(recover(f.view, path.c_str(), &st), 0);
  CHECK_EQ(st.undone, 1u);
  CHECK_EQ(st.replayed, 3u);
  CHECK_EQ(st.discarded, 1u);
  CHECK_EQ(st.entries, 10u);
  check_recovered(f, "full");
  RecoveryStats again;
  CHECK_EQ(recover(f.view, path.c_str(), &again), 0);
  CHECK_EQ(again.entries, 0u);
  CHECK_EQ(again.discarded, 0u);
  check_recovered(f, "twice");

  // A crash after k applied entries, then recovery again: same result.
  for (uint64_t k = 0; k <= 10; ++k) {
    prepare(f);
    CHECK_EQ(recover(f.view, path.c_str(), nullptr, k), 0);
    CHECK_EQ(recover(f.view, path.c_str(), nullptr), 0);
    check_recovered(f, "cut");
    // ... and a crash twice in a row.
    prepare(f);
    CHECK_EQ(recover(f.view, path.c_str(), nullptr, k), 0);
    CHECK_EQ(recover(f.view, path.c_str(), nullptr, k / 2), 0);
    CHECK_EQ(recover(f.view, path.c_str(), nullptr), 0);
    check_recovered(f, "cut twice");
  }

  // A committed redo log with a damaged entry is refused, nothing written.
  prepare(f);
  f.view.entries(7)[1].data ^= 0x100;
  std::vector<uint64_t> before(f.words, f.words + kWords);
  CHECK(f.refused_recovery(path) ==
        "ptm: error: " + path +
            ": thread slot 7: entry 1 of its committed redo log "
            "(generation 9) is damaged; the pool cannot be recovered\n");
  CHECK(std::vector<uint64_t>(f.words, f.words + kWords) == before);

  // ptm_open recovers the hand-made state before anything else.
  prepare(f);
  f.unmap();
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  CHECK(ptm_root(0) == root);
  std::vector<uint64_t> want = expected();
  for (int i = 0; i < kWords; ++i)
    CHECK_EQ(root[i], want[i]);
  // The pool works afterwards (slots were left idle).
  run_tx([&] { __ptm_write_8(&root[0], __ptm_read_8(&root[0]) + 1); });
  CHECK_EQ(root[0], 101u);
  ptm_close();
  unlink(path.c_str());
  return check_result("recovery");
}
