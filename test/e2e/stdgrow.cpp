// Standard containers grown inside transactions until single transactions
// rewrite far more words than a thread slot logs (8,188 entries in a
// default 256 KiB slot): std::unordered_map rehashing (every node relinked
// in the insert that crosses the load factor), std::vector reallocating
// (every element copied), std::deque growing its map, std::map and
// std::string growing; then one transaction rehashes the map to four times
// its buckets, one sorts the vector in place and one erases every other
// key. With the persistent libraries their logs extend into the pool's
// heap (docs/pool.md "Log extensions"); the volatile ones show the program
// is the same. THREADS threads insert N keys each, in transactions that
// conflict on the shared containers; the end state is checked exactly.
//
// Usage: e2e_stdgrow [threads [keys per thread]]
#include "e2e.h"

#include <algorithm>
#include <deque>
#include <map>
#include <pthread.h>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct State {
  std::unordered_map<long, long> hash;
  std::map<long, long> tree;
  std::vector<long> vec;
  std::deque<long> deque;
  std::string text;
};

State *state;
long keys_per_thread = 20000;

long value_of(long key) { return key * 7 + 3; }

void *worker(void *arg) {
  long t = reinterpret_cast<long>(arg);
  for (long k = 0; k < keys_per_thread; ++k) {
    long key = t * keys_per_thread + k;
    ptm::atomic([&] {
      State &s = *state;
      s.hash[key] = value_of(key);
      s.tree.emplace(key, value_of(key));
      s.vec.push_back(key);
      s.deque.push_back(key);
      s.text.push_back(static_cast<char>('a' + key % 26));
    });
  }
  return nullptr;
}

} // namespace

int main(int argc, char **argv) {
  long threads = argc > 1 ? atol(argv[1]) : 1;
  if (argc > 2)
    keys_per_thread = atol(argv[2]);
  ptm::atomic([&] { state = new State; });
  std::vector<pthread_t> tid(static_cast<size_t>(threads));
  for (long t = 0; t < threads; ++t)
    pthread_create(&tid[static_cast<size_t>(t)], nullptr, worker,
                   reinterpret_cast<void *>(t));
  for (pthread_t &t : tid)
    pthread_join(t, nullptr);
  long n = threads * keys_per_thread;
  size_t buckets = 0;
  // One transaction each: a rehash to four times the buckets, a sort of
  // the whole vector, every other key erased from both maps.
  ptm::atomic([&] {
    state->hash.rehash(4 * state->hash.bucket_count());
    buckets = state->hash.bucket_count();
  });
  ptm::atomic([&] { std::sort(state->vec.begin(), state->vec.end()); });
  ptm::atomic([&] {
    for (long key = 0; key < n; key += 2) {
      state->hash.erase(key);
      state->tree.erase(key);
    }
  });

  const State &s = *state;
  CHECK(buckets >= static_cast<size_t>(n), "%zu buckets", buckets);
  CHECK_EQ(s.hash.size(), static_cast<size_t>(n / 2));
  CHECK_EQ(s.tree.size(), static_cast<size_t>(n / 2));
  CHECK_EQ(s.vec.size(), static_cast<size_t>(n));
  CHECK_EQ(s.deque.size(), static_cast<size_t>(n));
  CHECK_EQ(s.text.size(), static_cast<size_t>(n));
  bool ok = true;
  for (long key = 0; key < n; ++key) {
    auto h = s.hash.find(key);
    auto t = s.tree.find(key);
    if (key % 2 == 0) {
      ok &= h == s.hash.end() && t == s.tree.end();
    } else {
      ok &= h != s.hash.end() && h->second == value_of(key);
      ok &= t != s.tree.end() && t->second == value_of(key);
    }
    ok &= s.vec[static_cast<size_t>(key)] == key;
  }
  CHECK(ok, "a key missing, present after its erase, or a wrong value");
  // Each thread's keys are in the deque and the string in its own order.
  std::vector<long> next(static_cast<size_t>(threads));
  for (long t = 0; t < threads; ++t)
    next[static_cast<size_t>(t)] = t * keys_per_thread;
  bool ordered = true;
  for (size_t i = 0; i < s.deque.size(); ++i) {
    long key = s.deque[i];
    long t = key / keys_per_thread;
    ordered &= t >= 0 && t < threads && key == next[static_cast<size_t>(t)]++;
    ordered &= s.text[i] == static_cast<char>('a' + key % 26);
  }
  CHECK(ordered, "the deque or the string out of a thread's order");
  return e2e_finish("stdgrow");
}
