//===- test_generations.cpp - no two thread slots use one generation -----===//
//
// A log entry is valid for a record only with the record's generation
// (pool_format.h entry_valid). A log extension's block is heap memory that
// another slot's record may have used before, so two slots must never use
// the same generation (pool_format.h kGenStride): each slot's are congruent
// to its index, and a claim starts above every generation of every slot.
//
// Four threads hold four slots at once and run transactions; the file then
// shows, for every slot the run used (the buffered persister's too, when
// the domain gives it a ring), a claim and records whose generations are
// congruent to the slot's index. Then one slot of the file is given a claim
// far above the others (as a pool written before generations were the
// slots' own may have), and the next claim of another slot starts above it.
//
//===----------------------------------------------------------------------===//

#include "pool_test.h"
#include "runtime/pool/pool_format.h"

#include <cstring>
#include <pthread.h>
#include <thread>
#include <vector>

using namespace ptm::pool;

namespace {

constexpr unsigned kThreads = 4;
constexpr unsigned kTxs = 50;

SlotHeader slot_header(const std::vector<unsigned char> &image,
                       const PoolHeader &h, uint32_t i) {
  SlotHeader s;
  memcpy(&s, &image[h.slots_offset + i * h.slot_size], sizeof s);
  return s;
}

// Every slot the run claimed: its claim and its records' generations are
// congruent to its index. How many slots were claimed.
unsigned check_slots(const std::string &path) {
  std::vector<unsigned char> image = read_file(path);
  CHECK(image.size() >= sizeof(PoolHeader));
  PoolHeader h;
  memcpy(&h, image.data(), sizeof h);
  unsigned claimed = 0;
  for (uint32_t i = 0; i < h.slot_count; ++i) {
    SlotHeader s = slot_header(image, h, i);
    if (s.claim_gen == 0)
      continue;
    ++claimed;
    CHECK_EQ(s.claim_gen % kGenStride, uint64_t(i));
    for (unsigned p = 0; p < kRingParts; ++p) {
      uint64_t gen = status_gen(record_header(s, p).status);
      if (gen != 0) {
        CHECK_EQ(gen % kGenStride, uint64_t(i));
        CHECK(gen >= s.claim_gen);
      }
    }
  }
  return claimed;
}

} // namespace

int main() {
  std::string path = temp_pool_path("gens");
  CHECK_EQ(ptm_open(path.c_str(), 32 << 20), 0);
  auto *words = static_cast<uint64_t *>(ptm_root(kThreads * 64));
  CHECK(words != nullptr);
  pthread_barrier_t all_hold;
  pthread_barrier_init(&all_hold, nullptr, kThreads);
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      uint64_t *w = &words[t * 8];
      run_tx([&] { __ptm_write_8(w, __ptm_read_8(w) + 1); });
      // (every thread holds its slot now: four slots)
      pthread_barrier_wait(&all_hold);
      for (unsigned k = 1; k < kTxs; ++k)
        run_tx([&] { __ptm_write_8(w, __ptm_read_8(w) + 1); });
    });
  for (std::thread &t : threads)
    t.join();
  pthread_barrier_destroy(&all_hold);
  for (unsigned t = 0; t < kThreads; ++t)
    CHECK_EQ(words[t * 8], uint64_t(kTxs));
  ptm_close();
  unsigned claimed = check_slots(path);
  CHECK(claimed >= kThreads);
  printf("generations: %u slots claimed, each congruent to its index\n",
         claimed);

  // The last slot's claim far above every other generation of the pool.
  std::vector<unsigned char> image = read_file(path);
  PoolHeader h;
  memcpy(&h, image.data(), sizeof h);
  uint32_t last = h.slot_count - 1;
  CHECK_EQ(slot_header(image, h, last).claim_gen, uint64_t(0));
  const uint64_t high = (uint64_t(9) << 24) + 3;
  FILE *f = fopen(path.c_str(), "r+b");
  CHECK(f != nullptr);
  CHECK_EQ(fseek(f,
                 long(h.slots_offset + last * h.slot_size +
                      offsetof(SlotHeader, claim_gen)),
                 SEEK_SET),
           0);
  CHECK_EQ(fwrite(&high, sizeof high, 1, f), size_t(1));
  CHECK_EQ(fclose(f), 0);

  CHECK_EQ(ptm_open(path.c_str(), 0), 0);
  words = static_cast<uint64_t *>(ptm_root(0));
  CHECK(words != nullptr);
  run_tx([&] { __ptm_write_8(&words[0], __ptm_read_8(&words[0]) + 1); });
  ptm_close();
  image = read_file(path);
  uint64_t above = 0;
  for (uint32_t i = 0; i < last; ++i) {
    SlotHeader s = slot_header(image, h, i);
    if (s.claim_gen > high) {
      ++above;
      CHECK_EQ(s.claim_gen % kGenStride, uint64_t(i));
    }
  }
  CHECK(above >= 1);
  printf("generations: a claim after a slot's claim of %llu started above "
         "it (%llu slots)\n",
         (unsigned long long)high, (unsigned long long)above);
  unlink(path.c_str());
  return check_result("generations");
}
