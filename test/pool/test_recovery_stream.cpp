//===- test_recovery_stream.cpp - recovery of speculative logs (sp3) -----===//
//
// Speculative logs (pool_format.h kRedoStream, docs/pool.md "Speculative
// log") written by hand next to an ordinary committed redo log:
//   slot 2  stream, epoch 3: C (order 9, dep 7) then A (order 5)
//   slot 4  stream, epoch 1: B (order 7, dep 5) then D (order 8, a chunk)
//   slot 6  redo-committed, order 6
// All valid: everything is replayed in commit order (word 7, written by 5
// and 9, ends with 9's value although C sits before A in its slot); a cut
// after any number of entries, then recovery again (once or twice cut), the
// same. A's record torn: D and order 6 replayed, B and C dropped. Then: the
// floor (a record at or below it superseded, a dependency at or below it
// satisfied), a record of an older epoch ignored, a head whose body is
// garbage or runs past the slot skipped with the records after it found, a
// second recovery doing nothing, epoch 0 refused, ptm_open recovering it.
//
//===----------------------------------------------------------------------===//

#include "test/pool/mapped_pool.h"

#include <cstring>
#include <utility>
#include <vector>

using namespace ptm::pool;

static constexpr uint64_t G = kLogGranularity;
static constexpr int kWords = 32;     // the root object
static constexpr int kChunkWord = 16; // chunk D's first word (G-aligned)

struct Fixture : MappedPool {
  uint64_t *w;
  Fixture(const std::string &path, uint64_t *root)
      : MappedPool(path, /*writable=*/true), w(root) {}
};

static void put_entry(LogEntry &e, uint64_t addr, uint64_t meta,
                      uint64_t data) {
  e.addr = addr;
  e.meta = meta;
  e.data = data;
  e.check = entry_check(addr, meta, data);
}

static unsigned char pattern_byte(int k, uint64_t i) {
  return static_cast<unsigned char>(k * 16 + i);
}

// What one speculative record holds.
struct Rec {
  uint64_t order = 0;
  std::vector<std::pair<uint64_t *, uint64_t>> words;
  std::vector<uint64_t> deps;
  size_t dep_at = SIZE_MAX;      // deps before the word of this index (else
                                 // after the words)
  uint64_t *chunk = nullptr;     // a chunk entry of pattern CHUNK_PATTERN
  int chunk_pattern = 0;         // (first in the body: on a cache line)
  uint64_t epoch_override = 0;   // head's epoch if not the slot's
  uint64_t records_override = 0; // head's R if not the body's length
};

// Writes R as the record at K (even) of SLOT's entries, its head of EPOCH;
// returns the first even record after it.
static uint64_t put_record(Fixture &f, uint32_t slot, uint64_t k,
                           uint64_t epoch, const Rec &r) {
  LogEntry *e = f.view.entries(slot);
  uint64_t meta = entry_meta(0, r.order);
  uint64_t i = k + 2;
  if (r.chunk) {
    LogEntry &c = e[i];
    c.addr = reinterpret_cast<uint64_t>(r.chunk);
    c.meta = meta;
    c.data = G;
    for (uint64_t b = 0; b < G; ++b)
      chunk_bytes(c)[b] = pattern_byte(r.chunk_pattern, b);
    c.check = chunk_check(c.addr, c.meta, G, chunk_bytes(c));
    i += chunk_records(G);
  }
  auto deps = [&] {
    for (uint64_t d : r.deps)
      put_entry(e[i++], kDepEntryAddr, meta, d);
  };
  for (size_t j = 0; j < r.words.size(); ++j) {
    if (j == r.dep_at)
      deps();
    put_entry(e[i++], reinterpret_cast<uint64_t>(r.words[j].first),
              entry_meta(0xff, r.order), r.words[j].second);
  }
  if (r.dep_at >= r.words.size())
    deps();
  uint64_t body = i - (k + 2);
  uint64_t head_r = r.records_override ? r.records_override : body;
  uint64_t head_e = r.epoch_override ? r.epoch_override : epoch;
  put_entry(e[k], kStreamHeadAddr, meta, head_r | head_e << 32);
  put_entry(e[k + 1], kStreamSumAddr, meta, stream_body_sum(e + k + 2, body));
  return (i + 1) & ~1ull;
}

static void set_stream(Fixture &f, uint32_t slot, uint64_t gen,
                       uint64_t epoch) {
  SlotHeader *h = f.view.slot(slot);
  h->stream_epoch = epoch;
  h->status = slot_status(kRedoStream, gen);
}

// Every slot empty and idle, the words 900 + i.
static void reset(Fixture &f) {
  for (uint32_t i = 0; i < f.view.header.slot_count; ++i)
    memset(static_cast<void *>(f.view.slot(i)), 0, f.view.header.slot_size);
  for (int i = 0; i < kWords; ++i)
    f.w[i] = 900 + i;
}

// Records A, B, C, D of the header comment and the committed slot 6.
static Rec rec_a(Fixture &f) {
  Rec a;
  a.order = 5;
  a.words = {{&f.w[1], 51}, {&f.w[6], 56}, {&f.w[7], 57}};
  return a;
}

static void prepare_dag(Fixture &f, bool tear_a) {
  reset(f);
  uint64_t *w = f.w;
  // slot 2: C then A. C's dep sits between its words.
  set_stream(f, 2, 40, 3);
  Rec c;
  c.order = 9;
  c.words = {{&w[0], 9}, {&w[3], 93}, {&w[7], 97}};
  c.deps = {7};
  c.dep_at = 1;
  uint64_t k = put_record(f, 2, 0, 3, c);
  uint64_t ka = k;
  put_record(f, 2, k, 3, rec_a(f));
  if (tear_a)
    f.view.entries(2)[ka + 3].data ^= 0x10; // w[6]'s entry: check broken
  // The slot's other record headers are not used: garbage there is
  // ignored.
  f.view.slot(2)->ring[0].status = slot_status(kRedoCommitted, 77);
  f.view.slot(2)->ring[0].redo_count = 5;
  f.view.slot(2)->ring[1].status = 0xab;
  // slot 4: B (odd body: D starts after a rounding) then D.
  set_stream(f, 4, 12, 1);
  Rec b;
  b.order = 7;
  b.words = {{&w[1], 71}, {&w[2], 72}};
  b.deps = {5};
  k = put_record(f, 4, 0, 1, b);
  CHECK_EQ(k, 6u);
  Rec d;
  d.order = 8;
  d.words = {{&w[4], 84}};
  d.chunk = &w[kChunkWord];
  d.chunk_pattern = 8;
  put_record(f, 4, k, 1, d);
  // slot 6: redo-committed, order 6.
  LogEntry *e6 = f.view.entries(6);
  put_entry(e6[0], reinterpret_cast<uint64_t>(&w[0]), entry_meta(0xff, 21), 6);
  put_entry(e6[1], reinterpret_cast<uint64_t>(&w[6]), entry_meta(0xff, 21), 66);
  SlotHeader *h6 = f.view.slot(6);
  h6->redo_count = 2;
  h6->commit_order = 6;
  h6->status = slot_status(kRedoCommitted, 21);
}

static std::vector<uint64_t> expected_dag(bool torn_a) {
  std::vector<uint64_t> v(kWords);
  for (int i = 0; i < kWords; ++i)
    v[i] = 900 + i;
  v[4] = 84;
  v[6] = 66;
  unsigned char bytes[64];
  for (uint64_t b = 0; b < G; ++b)
    bytes[b] = pattern_byte(8, b);
  memcpy(&v[kChunkWord], bytes, G);
  if (torn_a) {
    v[0] = 6;
  } else {
    v[0] = 9;
    v[1] = 71;
    v[2] = 72;
    v[3] = 93;
    v[7] = 97;
  }
  return v;
}

// Memory is WANT, every slot idle and every floor 0.
static void check_state(Fixture &f, const std::vector<uint64_t> &want,
                        const char *what) {
  for (int i = 0; i < kWords; ++i)
    if (f.w[i] != want[i]) {
      fprintf(stderr, "%s: word %d is %llu, expected %llu\n", what, i,
              (unsigned long long)f.w[i], (unsigned long long)want[i]);
      ++check_failures;
    }
  for (uint32_t i = 0; i < f.view.header.slot_count; ++i) {
    CHECK_EQ(status_state(f.view.slot(i)->status), kIdle);
    CHECK_EQ(f.view.slot(i)->floor, 0u);
  }
  CHECK(pending_slots(f.view).empty());
}

// Recovers F's pool, which must report these counts: its statistics.
static RecoveryStats expect_recovery(Fixture &f, const std::string &path,
                                     uint64_t replayed, uint64_t dropped,
                                     uint64_t superseded, uint64_t entries) {
  RecoveryStats st;
  CHECK_EQ(recover(f.view, path.c_str(), &st), 0);
  CHECK_EQ(st.replayed, replayed);
  CHECK_EQ(st.dropped, dropped);
  CHECK_EQ(st.superseded, superseded);
  CHECK_EQ(st.entries, entries);
  return st;
}

static void test_dag(Fixture &f, const std::string &path) {
  // What the scans see.
  prepare_dag(f, false);
  std::vector<SlotScan> pend = pending_slots(f.view);
  CHECK_EQ(pend.size(), 3u); // slot 2 once, slot 4 once, slot 6
  CHECK_EQ(pend[0].index, 2u);
  CHECK_EQ(pend[0].part, 0u);
  CHECK_EQ(pend[0].state, kRedoStream);
  CHECK_EQ(pend[0].epoch, 3u);
  CHECK_EQ(pend[0].gen, 40u);
  CHECK(!pend[0].damaged);
  CHECK_EQ(pend[1].index, 4u);
  CHECK_EQ(pend[1].epoch, 1u);
  CHECK_EQ(scan_slot(f.view, 2, 1).state, kIdle);
  CHECK(!scan_slot(f.view, 2, 2).damaged);
  std::vector<StreamRecord> s2 = stream_records(f.view, 2);
  CHECK_EQ(s2.size(), 2u);
  if (s2.size() == 2) {
    CHECK_EQ(s2[0].order, 9u);
    CHECK_EQ(s2[0].begin, 2u);
    CHECK_EQ(s2[0].records, 4u);
    CHECK(s2[0].deps == std::vector<uint64_t>{7});
    CHECK_EQ(s2[1].order, 5u);
    CHECK_EQ(s2[1].begin, 8u);
    CHECK_EQ(s2[1].records, 3u);
    CHECK(s2[1].deps.empty());
  }
  std::vector<StreamRecord> s4 = stream_records(f.view, 4);
  CHECK_EQ(s4.size(), 2u);
  if (s4.size() == 2) {
    CHECK_EQ(s4[1].order, 8u);
    CHECK_EQ(s4[1].begin, 8u);
    CHECK_EQ(s4[1].records, chunk_records(G) + 1);
  }
  CHECK(stream_records(f.view, 6).empty()); // not a speculative log
  // Heads, deps and pads are never data.
  CHECK(!f.view.is_data(kStreamHeadAddr, 8));
  CHECK(!f.view.is_data(kDepEntryAddr, 8));
  CHECK(!f.view.is_data(0, 8));
  CHECK_EQ(entry_span(f.view.entries(2)[0]), 8u);

  // All valid: everything in commit order.
  expect_recovery(f, path, 5, 0, 0, 12);
  check_state(f, expected_dag(false), "dag valid");
  // Retired: idle of the same generation, the epoch kept.
  CHECK_EQ(f.view.slot(2)->status, slot_status(kIdle, 40));
  CHECK_EQ(f.view.slot(2)->stream_epoch, 3u);
  CHECK_EQ(f.view.slot(4)->status, slot_status(kIdle, 12));
  CHECK(stream_records(f.view, 2).empty());
  // A second recovery does nothing.
  RecoveryStats again;
  f.w[1] = 12345; // would be overwritten by a replay
  CHECK_EQ(recover(f.view, path.c_str(), &again), 0);
  CHECK_EQ(again.replayed + again.entries + again.superseded + again.dropped,
           0u);
  CHECK_EQ(f.w[1], 12345u);

  // A torn: B and C dropped, D and order 6 replayed.
  prepare_dag(f, true);
  CHECK_EQ(stream_records(f.view, 2).size(), 1u);
  expect_recovery(f, path, 2, 2, 0, 4);
  check_state(f, expected_dag(true), "dag torn");

  // A crash after K entries (once or twice), then recovery: the same. A cut
  // after order 6 is replayed must not let A (5) be replayed over it again.
  for (int torn_a = 0; torn_a < 2; ++torn_a)
    for (uint64_t k = 0; k <= 12; ++k) {
      prepare_dag(f, torn_a);
      CHECK_EQ(recover(f.view, path.c_str(), nullptr, k), 0);
      CHECK_EQ(recover(f.view, path.c_str(), nullptr), 0);
      check_state(f, expected_dag(torn_a), "dag cut");
      prepare_dag(f, torn_a);
      CHECK_EQ(recover(f.view, path.c_str(), nullptr, k), 0);
      CHECK_EQ(recover(f.view, path.c_str(), nullptr, k / 2), 0);
      CHECK_EQ(recover(f.view, path.c_str(), nullptr), 0);
      check_state(f, expected_dag(torn_a), "dag cut twice");
    }

  // A crash after the replay, once recovery's floor (the largest order) is
  // durable, with some logs idle already: nothing is written again.
  for (int idle6 = 0; idle6 < 2; ++idle6) {
    prepare_dag(f, false);
    std::vector<uint64_t> want = expected_dag(false);
    memcpy(f.w, want.data(), sizeof(uint64_t) * kWords);
    f.w[7] = 57; // would be 97 again if C were replayed
    want[7] = 57;
    f.view.slot(2)->floor = 9;
    if (idle6)
      f.view.slot(6)->status = slot_status(kIdle, 21);
    RecoveryStats late;
    CHECK_EQ(recover(f.view, path.c_str(), &late), 0);
    CHECK_EQ(late.entries, 0u);
    CHECK_EQ(late.superseded, idle6 ? 4u : 5u);
    check_state(f, want, "after the floor");
  }
}

// The floor (7, in an idle slot's header as a persister leaves it): X (4)
// and Z (7) superseded; Y (12, dep 6) and V (13, dep 7) kept; U (14, dep 8)
// dropped (8 is above the floor and no record's).
static void test_floor(Fixture &f, const std::string &path) {
  reset(f);
  uint64_t *w = f.w;
  set_stream(f, 3, 1, 2);
  Rec x, y, z, v, u;
  x.order = 4;
  x.words = {{&w[8], 4}};
  y.order = 12;
  y.words = {{&w[9], 12}};
  y.deps = {6};
  z.order = 7;
  z.words = {{&w[10], 7}, {&w[9], 70}};
  v.order = 13;
  v.words = {{&w[11], 13}};
  v.deps = {7};
  u.order = 14;
  u.words = {{&w[12], 14}};
  u.deps = {12, 8};
  uint64_t k = 0;
  for (const Rec *r : {&x, &y, &z, &v, &u})
    k = put_record(f, 3, k, 2, *r);
  f.view.slot(9)->floor = 7;
  CHECK_EQ(replay_floor(f.view), 7u);
  CHECK_EQ(stream_records(f.view, 3).size(), 5u);
  std::vector<StreamRecord> above = stream_records(f.view, 3, 7);
  CHECK_EQ(above.size(), 3u);
  if (above.size() == 3) {
    CHECK_EQ(above[0].order, 12u);
    CHECK_EQ(above[1].order, 13u);
    CHECK(above[2].deps == (std::vector<uint64_t>{12, 8}));
  }
  expect_recovery(f, path, 2, 1, 2, 2);
  std::vector<uint64_t> want(kWords);
  for (int i = 0; i < kWords; ++i)
    want[i] = 900 + i;
  want[9] = 12;
  want[11] = 13;
  check_state(f, want, "floor");
}

// Slot 5 (epoch 5): a record of epoch 4 left from the slot's previous
// stream (whole, but stale), a valid record (order 3), a head whose body is
// partly garbage (a word of another generation) claiming records that hold
// a valid record (order 4) inside its span, a head claiming more records
// than the slot has, zeros, and a last valid record (order 6) near the end.
static void test_scan(Fixture &f, const std::string &path) {
  reset(f);
  uint64_t *w = f.w;
  uint64_t cap = f.view.capacity();
  set_stream(f, 5, 9, 5);
  Rec stale, r3, bad, r4, wrap, r6;
  stale.order = 2;
  stale.words = {{&w[12], 1}};
  stale.epoch_override = 4;
  uint64_t k = put_record(f, 5, 0, 5, stale);
  r3.order = 3;
  r3.words = {{&w[13], 3}};
  k = put_record(f, 5, k, 5, r3);
  // bad: order 10, its head says 8 body records, only 2 are written (one
  // of generation 11); r4 starts at bad's first body line after those.
  uint64_t kb = k;
  bad.order = 10;
  bad.words = {{&w[14], 10}, {&w[15], 10}};
  bad.records_override = 8;
  k = put_record(f, 5, kb, 5, bad);
  LogEntry &g = f.view.entries(5)[kb + 3];
  put_entry(g, g.addr, entry_meta(0xff, 11), g.data);
  r4.order = 4;
  r4.words = {{&w[15], 4}};
  uint64_t k4 = k;
  k = put_record(f, 5, k, 5, r4);
  CHECK(k4 < kb + 2 + 8); // inside bad's claimed span
  // wrap: a whole head 8 records before the end claiming 100.
  wrap.order = 11;
  wrap.records_override = 100;
  put_record(f, 5, cap - 8, 5, wrap);
  r6.order = 6;
  r6.words = {{&w[14], 6}};
  put_record(f, 5, cap - 4, 5, r6);

  std::vector<StreamRecord> recs = stream_records(f.view, 5);
  CHECK_EQ(recs.size(), 3u);
  if (recs.size() == 3) {
    CHECK_EQ(recs[0].order, 3u);
    CHECK_EQ(recs[1].order, 4u);
    CHECK_EQ(recs[1].begin, k4 + 2);
    CHECK_EQ(recs[2].order, 6u);
    CHECK_EQ(recs[2].begin, cap - 2);
  }
  // The same slot with epoch 4: only the stale record is of its stream.
  f.view.slot(5)->stream_epoch = 4;
  recs = stream_records(f.view, 5);
  CHECK_EQ(recs.size(), 1u);
  if (recs.size() == 1)
    CHECK_EQ(recs[0].order, 2u);
  f.view.slot(5)->stream_epoch = 5;

  CHECK_EQ(expect_recovery(f, path, 3, 0, 0, 3).discarded, 0u);
  std::vector<uint64_t> want(kWords);
  for (int i = 0; i < kWords; ++i)
    want[i] = 900 + i;
  want[13] = 3;
  want[15] = 4;
  want[14] = 6;
  check_state(f, want, "scan");
  CHECK_EQ(f.view.slot(5)->stream_epoch, 5u);
}

static void test_epoch0(Fixture &f, const std::string &path) {
  prepare_dag(f, false);
  f.view.slot(4)->stream_epoch = 0;
  SlotScan s = scan_slot(f.view, 4);
  CHECK(s.damaged);
  CHECK(stream_records(f.view, 4).empty());
  std::vector<uint64_t> before(f.w, f.w + kWords);
  CHECK(f.refused_recovery(path) ==
        "ptm: error: " + path +
            ": thread slot 4: speculative log with epoch 0; the pool cannot "
            "be recovered\n");
  CHECK(std::vector<uint64_t>(f.w, f.w + kWords) == before);
  CHECK_EQ(status_state(f.view.slot(2)->status), kRedoStream);
  CHECK_EQ(status_state(f.view.slot(6)->status), kRedoCommitted);
}

int main() {
  std::string path = temp_pool_path("recovery-stream");
  CHECK_EQ(ptm_open(path.c_str(), 32 << 20), 0);
  auto *root = static_cast<uint64_t *>(ptm_root(kWords * 8));
  CHECK(root != nullptr);
  CHECK_EQ(reinterpret_cast<uintptr_t>(root + kChunkWord) % G, 0u);
  ptm_close();

  Fixture f(path, root);
  test_dag(f, path);
  test_floor(f, path);
  test_scan(f, path);
  test_epoch0(f, path);

  // ptm_open recovers a speculative log before anything else.
  prepare_dag(f, true);
  f.unmap();
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  CHECK(ptm_root(0) == root);
  std::vector<uint64_t> want = expected_dag(true);
  for (int i = 0; i < kWords; ++i)
    CHECK_EQ(root[i], want[i]);
  run_tx([&] { __ptm_write_8(&root[1], __ptm_read_8(&root[1]) + 1); });
  CHECK_EQ(root[1], 902u);
  ptm_close();
  unlink(path.c_str());
  return check_result("recovery-stream");
}
