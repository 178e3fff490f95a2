//===- test_recovery_chunks.cpp - recovery of chunk entries ---------------===//
//
// Coarse-grained logging's entries (pool_format.h: chunk entries of G bytes,
// padding records) in synthetic slot logs, next to word entries:
//   slot 4  undo-active: a word entry (word 0), a padding record, chunk A's
//           old bytes, then chunk B's entry torn (one byte of its data
//           changed after the check was computed): A and word 0 restored, B
//           left as it is (the torn entry ends the log)
//   slot 5  redo-committed, order 2: chunk C = pattern 2
//   slot 6  redo-committed, order 1: word 1 = 77, padding, chunk C =
//           pattern 1, chunk D = pattern 1
// Recovery must end with C = pattern 2 (commit order), D = pattern 1, every
// slot idle; cut after k entries and run again, for every k, the same; a
// committed chunk entry with a changed byte is refused with a message and
// nothing is written; a chunk entry whose records run past the committed
// count is damaged too.
//
//===----------------------------------------------------------------------===//

#include "test/pool/mapped_pool.h"

#include <cstring>
#include <vector>

using namespace ptm::pool;

static constexpr uint64_t G = kLogGranularity;
static constexpr uint64_t kBytes = 8 * G; // the root: 8 chunks

struct Fixture : MappedPool {
  unsigned char *data; // the root object (chunk-aligned)
  Fixture(const std::string &path, unsigned char *root)
      : MappedPool(path, /*writable=*/true), data(root) {}
};

static unsigned char *chunk(Fixture &f, int i) { return f.data + i * G; }

static void put_word(LogEntry &e, void *addr, uint64_t gen, uint64_t value) {
  e.addr = reinterpret_cast<uint64_t>(addr);
  e.meta = entry_meta(0xff, gen);
  e.data = value;
  e.check = entry_check(e.addr, e.meta, e.data);
}
static void put_pad(LogEntry &e, uint64_t gen) {
  e.addr = 0;
  e.meta = entry_meta(0, gen);
  e.data = 0;
  e.check = entry_check(0, e.meta, 0);
}
// A chunk entry at E for the chunk at ADDR holding BYTES; returns the
// records it takes.
static uint64_t put_chunk(LogEntry &e, void *addr, uint64_t gen,
                          const unsigned char *bytes) {
  e.addr = reinterpret_cast<uint64_t>(addr);
  e.meta = entry_meta(0, gen);
  e.data = G;
  memcpy(chunk_bytes(e), bytes, G);
  e.check = chunk_check(e.addr, e.meta, G, chunk_bytes(e));
  return chunk_records(G);
}

static std::vector<unsigned char> pattern(int k) {
  std::vector<unsigned char> p(G);
  for (uint64_t i = 0; i < G; ++i)
    p[i] = static_cast<unsigned char>(k * 16 + i);
  return p;
}

// Memory before recovery: 0xee everywhere (the crashed writes).
static void prepare(Fixture &f) {
  memset(f.data, 0xee, kBytes);
  // slot 4: undo-active, generation 3; chunk A = 2, B = 3 (old bytes:
  // patterns 7 and 8), word 0 (in chunk 0) old value 55.
  LogEntry *e4 = f.view.entries(4);
  uint64_t r = 0;
  put_word(e4[r++], chunk(f, 0), 3, 55);
  put_pad(e4[r++], 3);
  r += put_chunk(e4[r], chunk(f, 2), 3, pattern(7).data());
  put_chunk(e4[r], chunk(f, 3), 3, pattern(8).data());
  chunk_bytes(e4[r])[G - 1] ^= 1; // torn
  f.view.slot(4)->status = slot_status(kUndoActive, 3);
  // slot 5: redo-committed, generation 2, order 2: chunk C = 5.
  LogEntry *e5 = f.view.entries(5);
  f.view.slot(5)->redo_count =
      put_chunk(e5[0], chunk(f, 5), 2, pattern(2).data());
  f.view.slot(5)->commit_order = 2;
  f.view.slot(5)->status = slot_status(kRedoCommitted, 2);
  // slot 6: redo-committed, generation 11, order 1.
  LogEntry *e6 = f.view.entries(6);
  r = 0;
  put_word(e6[r++], chunk(f, 1), 11, 77);
  put_pad(e6[r++], 11);
  r += put_chunk(e6[r], chunk(f, 5), 11, pattern(1).data());
  r += put_chunk(e6[r], chunk(f, 6), 11, pattern(1).data());
  f.view.slot(6)->redo_count = r;
  f.view.slot(6)->commit_order = 1;
  f.view.slot(6)->status = slot_status(kRedoCommitted, 11);
}

static std::vector<unsigned char> expected() {
  std::vector<unsigned char> v(kBytes, 0xee);
  uint64_t w0 = 55, w1 = 77;
  memcpy(&v[0], &w0, 8);
  memcpy(&v[G], &w1, 8);
  std::vector<unsigned char> p7 = pattern(7), p2 = pattern(2), p1 = pattern(1);
  memcpy(&v[2 * G], p7.data(), G);
  memcpy(&v[5 * G], p2.data(), G);
  memcpy(&v[6 * G], p1.data(), G);
  return v;
}

static void check_recovered(Fixture &f, const char *what) {
  std::vector<unsigned char> want = expected();
  for (uint64_t i = 0; i < kBytes; ++i)
    if (f.data[i] != want[i]) {
      fprintf(stderr, "%s: byte %llu is %u, expected %u\n", what,
              (unsigned long long)i, f.data[i], want[i]);
      ++check_failures;
      break;
    }
  for (uint32_t i = 0; i < f.view.header.slot_count; ++i)
    CHECK_EQ(status_state(f.view.slot(i)->status), kIdle);
}

int main() {
  std::string path = temp_pool_path("recovery-chunks");
  CHECK_EQ(ptm_open(path.c_str(), 32 << 20), 0);
  auto *root = static_cast<unsigned char *>(ptm_root(kBytes));
  CHECK(root != nullptr);
  CHECK_EQ(reinterpret_cast<uintptr_t>(root) % G, 0u);
  ptm_close();

  Fixture f(path, root);

  // What a scan sees: slot 4 has 2 valid entries (the pad is not one), the
  // committed slots all theirs.
  prepare(f);
  SlotScan s4 = scan_slot(f.view, 4);
  CHECK_EQ(s4.entries, 2u);
  CHECK_EQ(s4.records, 2 + chunk_records(G));
  CHECK(!s4.damaged);
  SlotScan s6 = scan_slot(f.view, 6);
  CHECK_EQ(s6.entries, 3u);
  CHECK(!s6.damaged);

  RecoveryStats st;
  CHECK_EQ(recover(f.view, path.c_str(), &st), 0);
  CHECK_EQ(st.undone, 1u);
  CHECK_EQ(st.replayed, 2u);
  CHECK_EQ(st.entries, 6u);
  check_recovered(f, "full");

  for (uint64_t k = 0; k <= 6; ++k) {
    prepare(f);
    CHECK_EQ(recover(f.view, path.c_str(), nullptr, k), 0);
    CHECK_EQ(recover(f.view, path.c_str(), nullptr), 0);
    check_recovered(f, "cut");
  }

  // A committed chunk entry with a changed byte: refused, nothing written.
  prepare(f);
  chunk_bytes(f.view.entries(6)[2])[3] ^= 0x40;
  std::vector<unsigned char> before(f.data, f.data + kBytes);
  CHECK(f.refused_recovery(path) ==
        "ptm: error: " + path +
            ": thread slot 6: entry 2 of its committed redo log "
            "(generation 11) is damaged; the pool cannot be "
            "recovered\n");
  CHECK(std::vector<unsigned char>(f.data, f.data + kBytes) == before);

  // A chunk entry cut by the committed count is damaged.
  prepare(f);
  f.view.slot(5)->redo_count = 1;
  CHECK(scan_slot(f.view, 5).damaged);

  // ptm_open recovers it all (count restored).
  prepare(f);
  f.unmap();
  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  CHECK(ptm_root(0) == root);
  std::vector<unsigned char> want = expected();
  CHECK(memcmp(root, want.data(), kBytes) == 0);
  ptm_close();
  unlink(path.c_str());
  return check_result("recovery-chunks");
}
