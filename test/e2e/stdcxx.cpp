// The C++ standard library inside transactions (issue 17, part 1):
// std::map, std::set, std::unordered_map, std::list, std::deque,
// std::vector, std::string, std::optional, std::variant and std::function,
// shared by THREADS threads. Each thread runs a seeded sequence of
// operations, each one transaction (alternately ptm::atomic and
// PTM_BEGIN/PTM_END) that takes the next number of a shared sequence and
// applies the operation to the shared containers. Afterwards the operations
// are replayed serially, in the order of their sequence numbers (the commit
// order), on containers outside any transaction: every transaction's result
// and the final state must equal the replay's.
//
// Between the two concurrent phases the main thread changes the same
// containers outside transactions (libstdc++'s own tree, list and hash
// code on nodes the transactions linked) and checks every red-black tree
// node by node; the end checks them again. A last phase throws from inside
// a transaction (std::string::reserve beyond max_size, std::map::at) and
// checks that the transaction's changes are rolled back.
//
// Usage: e2e_stdcxx [threads [operations per thread per phase]]
#include "e2e.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <list>
#include <map>
#include <optional>
#include <pthread.h>
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

namespace {

constexpr long kKeys = 40; // few keys: transactions conflict

struct State {
  std::map<long, std::string> map;
  std::set<long> set;
  std::multimap<long, long> multi;
  std::unordered_map<std::string, long> hash;
  std::list<long> list;
  std::deque<long> deque;
  std::vector<long> vec;
  std::string text;
  std::optional<std::string> opt;
  std::variant<long, std::string> var;
  std::function<long(long)> fn;
  long seq = 0;
};

struct Op {
  unsigned kind;
  long key;
  long val;
};

constexpr unsigned kKinds = 12;

std::string label(long key, long val) {
  // 3 to ~40 characters: short strings in place, longer ones on the heap.
  std::string s = "k" + std::to_string(key) + ":";
  s.append(static_cast<size_t>(val % 37), static_cast<char>('a' + val % 26));
  return s;
}

long list_op(State &s, const Op &op) {
  std::list<long> &l = s.list;
  switch (op.val % 8) {
  case 0:
    l.push_back(op.key);
    break;
  case 1:
    l.push_front(op.key);
    break;
  case 2:
    if (!l.empty())
      l.pop_front();
    break;
  case 3:
    l.remove(op.key);
    break;
  case 4:
    l.reverse();
    break;
  case 5: // the first element to the end, a range to the front
    if (l.size() > 3) {
      l.splice(l.end(), l, l.begin());
      auto first = std::next(l.begin(), 2), last = std::next(first, 2);
      l.splice(l.begin(), l, first, last);
    }
    break;
  case 6: {
    std::list<long> other{op.key, op.val, op.key + op.val};
    other.sort();
    l.merge(other);
    l.sort(); // swap and splice of libstdc++'s merge sort
    break;
  }
  default:
    l.insert(std::find(l.begin(), l.end(), op.key), op.val);
    break;
  }
  while (l.size() > 30)
    l.pop_back();
  long r = static_cast<long>(l.size());
  int n = 0;
  for (long v : l)
    if (n++ < 4)
      r = r * 31 + v;
  return r;
}

long tree_op(State &s, const Op &op) {
  switch (op.kind) {
  case 0:
    s.map[op.key] = label(op.key, op.val);
    return static_cast<long>(s.map.size());
  case 1:
    return static_cast<long>(s.map.erase(op.key)) * 1000 +
           static_cast<long>(s.map.size());
  case 2: { // walk forward and back from lower_bound
    long r = 0;
    auto it = s.map.lower_bound(op.key);
    auto back = it;
    for (int i = 0; i < 4 && it != s.map.end(); ++i, ++it)
      r = r * 7 + it->first * static_cast<long>(it->second.size());
    for (int i = 0; i < 3 && back != s.map.begin(); ++i)
      r = r * 5 + (--back)->first;
    if (!s.map.empty())
      r += s.map.rbegin()->first * 3 + s.map.begin()->first;
    return r;
  }
  case 3: {
    if (!s.set.insert(op.key).second)
      s.set.erase(op.key);
    long r = static_cast<long>(s.set.size());
    if (!s.set.empty())
      r += *s.set.begin() * 100 + *s.set.rbegin() * 10000;
    return r;
  }
  default: { // a range erase, multimap
    auto lo = s.map.lower_bound(op.key), hi = s.map.upper_bound(op.key + 3);
    long gone = std::distance(lo, hi);
    s.map.erase(lo, hi);
    s.multi.emplace(op.key % 8, op.val);
    if (s.multi.size() > 40)
      s.multi.erase(s.multi.begin());
    auto range = s.multi.equal_range(op.key % 8);
    long r = gone * 1000 + static_cast<long>(s.multi.size());
    for (auto it = range.first; it != range.second; ++it)
      r = r * 3 + it->second;
    return r;
  }
  }
}

long string_op(State &s, const Op &op) {
  std::string &t = s.text;
  t.append(label(op.key, op.val));
  if (op.val % 3 == 0)
    t.insert(0, std::to_string(op.val));
  if (t.size() > 150)
    t.erase(0, 60);
  std::string needle = "k" + std::to_string(op.key);
  size_t at = t.find(needle);
  if (at != std::string::npos)
    t.replace(at, needle.size(), "K");
  std::string mid = t.substr(t.size() / 3, 12);
  long r = static_cast<long>(t.size()) * 1000 +
           (at == std::string::npos ? -1 : static_cast<long>(at));
  try { // out_of_range thrown and caught inside the transaction
    r += t.at(t.size() + static_cast<size_t>(op.key));
  } catch (const std::out_of_range &) {
    r += 7;
  }
  return r * 31 + static_cast<long>(std::hash<std::string>{}(mid) % 1000);
}

long hash_op(State &s, const Op &op) {
  std::string k = "key-" + std::to_string(op.key);
  if (op.val % 4 == 0)
    k += "-with-a-long-suffix-on-the-heap";
  s.hash[k] += op.val;
  if (op.val % 5 == 0)
    s.hash.erase("key-" + std::to_string((op.key + 1) % kKeys));
  auto it = s.hash.find(k);
  return static_cast<long>(s.hash.size()) * 100000 +
         (it == s.hash.end() ? -1 : it->second % 1000);
}

long misc_op(State &s, const Op &op) {
  if (op.val % 3 == 0)
    s.opt.reset();
  else
    s.opt = label(op.key, op.val);
  if (op.val % 2)
    s.var = op.key * op.val;
  else
    s.var = label(op.val, op.key);
  long k = op.key;
  if (op.val % 4 < 2)
    s.fn = [k](long x) { return x * k + 1; };
  else
    s.fn = [k](long x) { return x - k; };
  long r = s.opt ? static_cast<long>(s.opt->size()) : -1;
  r = r * 131 +
      std::visit(
          [](const auto &v) -> long {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, long>)
              return v;
            else
              return static_cast<long>(v.size());
          },
          s.var);
  return r * 17 + s.fn(op.val);
}

long seq_op(State &s, const Op &op) {
  if (op.kind == 8) { // deque
    s.deque.push_back(op.val);
    if (op.val % 3)
      s.deque.push_front(op.key);
    while (s.deque.size() > 150)
      s.deque.pop_front();
    return static_cast<long>(s.deque.size()) * 1000 + s.deque.front() +
           s.deque[s.deque.size() / 2];
  }
  std::vector<long> &v = s.vec; // vector
  v.insert(v.begin() + static_cast<long>(op.key % (v.size() + 1)), op.val);
  if (v.size() > 60)
    v.erase(v.begin() + static_cast<long>(op.val % v.size()));
  return static_cast<long>(v.size()) * 1000 + v[v.size() / 2];
}

// One operation; the same code runs inside transactions (its clone) and in
// the replay (the original).
long apply(State &s, const Op &op) {
  switch (op.kind) {
  case 0:
  case 1:
  case 2:
  case 3:
  case 4:
    return tree_op(s, op);
  case 5:
    return list_op(s, op);
  case 6:
    return string_op(s, op);
  case 7:
    return hash_op(s, op);
  case 8:
  case 9:
    return seq_op(s, op);
  case 10:
    return hash_op(s, op) + tree_op(s, {0, op.key, op.val});
  default:
    return misc_op(s, op);
  }
}

Op next_op(uint64_t &rng) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  uint64_t x = rng >> 17;
  return {static_cast<unsigned>(x % kKinds),
          static_cast<long>((x >> 8) % kKeys),
          static_cast<long>((x >> 20) % 1000)};
}

struct Record {
  long seq;
  Op op;
  long result;
};

State *shared_state;
int ops_per_phase;

struct Worker {
  uint64_t rng;
  std::vector<Record> records;
};

void run_ops(Worker &w) {
  State *st = shared_state;
  for (int i = 0; i < ops_per_phase; i++) {
    Op op = next_op(w.rng);
    long seq, result;
    if (i % 2) {
      PTM_BEGIN();
      seq = st->seq++;
      result = apply(*st, op);
      PTM_END();
    } else {
      auto r = ptm::atomic([&] {
        long sq = st->seq++;
        return std::make_pair(sq, apply(*st, op));
      });
      seq = r.first;
      result = r.second;
    }
    w.records.push_back({seq, op, result});
  }
}

void *worker_main(void *arg) {
  run_ops(*static_cast<Worker *>(arg));
  return nullptr;
}

// ---- red-black tree check, node by node -----------------------------------

struct TreeCheck {
  const std::_Rb_tree_node_base *hdr;
  size_t nodes = 0;
  bool ok = true;

  int black_height(const std::_Rb_tree_node_base *n,
                   const std::_Rb_tree_node_base *up) {
    if (!n)
      return 1;
    if (n->_M_parent != up)
      ok = false;
    ++nodes;
    if (n->_M_color == std::_S_red &&
        ((n->_M_left && n->_M_left->_M_color == std::_S_red) ||
         (n->_M_right && n->_M_right->_M_color == std::_S_red)))
      ok = false;
    int l = black_height(n->_M_left, n), r = black_height(n->_M_right, n);
    if (l != r)
      ok = false;
    return l + (n->_M_color == std::_S_black);
  }
};

// The header's links, parent links, colours, black heights, the node
// count, and the order of the keys (KEY gives an element's key).
template <class Tree, class Key>
bool valid_tree(const Tree &t, Key key, const char *what) {
  TreeCheck c;
  c.hdr = t.end()._M_node;
  const std::_Rb_tree_node_base *root = c.hdr->_M_parent;
  bool ok = true;
  if (!root) {
    ok = t.empty() && c.hdr->_M_left == c.hdr && c.hdr->_M_right == c.hdr;
  } else {
    c.black_height(root, c.hdr);
    const std::_Rb_tree_node_base *lo = root, *hi = root;
    while (lo->_M_left)
      lo = lo->_M_left;
    while (hi->_M_right)
      hi = hi->_M_right;
    ok = c.ok && root->_M_color == std::_S_black && c.nodes == t.size() &&
         c.hdr->_M_left == lo && c.hdr->_M_right == hi &&
         c.hdr->_M_color == std::_S_red;
  }
  ok = ok &&
       std::is_sorted(t.begin(), t.end(), [&](const auto &a, const auto &b) {
         return key(a) < key(b);
       });
  CHECK(ok, "%s: a red-black tree is not valid", what);
  return ok;
}

bool valid_trees(const State &s, const char *when) {
  auto first = [](const auto &kv) { return kv.first; };
  bool ok = valid_tree(s.map, first, when);
  ok &= valid_tree(s.set, [](long k) { return k; }, when);
  ok &= valid_tree(s.multi, first, when);
  return ok;
}

bool same_state(const State &a, const State &b) {
  bool ok = true;
#define SAME(field)                                                            \
  if (!(a.field == b.field)) {                                                 \
    ok = false;                                                                \
    CHECK(false, "final state: " #field " differs from the serial replay");    \
  }
  SAME(map)
  SAME(set)
  SAME(multi)
  SAME(hash)
  SAME(list)
  SAME(deque)
  SAME(vec)
  SAME(text)
  SAME(opt)
  SAME(var)
  SAME(seq)
#undef SAME
  CHECK_EQ(a.fn(12345), b.fn(12345));
  return ok;
}

// The main thread's operations between the phases, outside transactions.
void plain_ops(State &s, uint64_t &rng, int n, std::vector<Record> &log) {
  for (int i = 0; i < n; i++) {
    Op op = next_op(rng);
    long seq = s.seq++;
    log.push_back({seq, op, apply(s, op)});
  }
}

// Many inserts and erases on a deeper tree (256 keys), one per
// transaction, against a reference set kept outside; the tree is checked
// node by node every 25 transactions.
void tree_torture() {
  std::set<long> *tree = nullptr;
  ptm::atomic([&] { tree = new std::set<long>; });
  std::set<long> ref;
  uint64_t rng = 4242;
  for (int i = 0; i < 3000; i++) {
    Op op = next_op(rng);
    long k = (op.key * 1000 + op.val) % 256;
    bool insert = (op.val % 8) < (i < 1500 ? 5 : 3); // grow, then shrink
    size_t n = ptm::atomic([&] {
      if (insert)
        tree->insert(k);
      else
        tree->erase(k);
      return tree->size();
    });
    if (insert)
      ref.insert(k);
    else
      ref.erase(k);
    CHECK_EQ(n, ref.size());
    if (i % 25 == 24 &&
        !valid_tree(*tree, [](long x) { return x; }, "tree torture"))
      break;
  }
  CHECK(*tree == ref, "tree torture: the set differs from the reference");
  ptm::atomic([&] { delete tree; });
}

// Exceptions that leave a transaction: its changes are rolled back.
void exceptions(State *st) {
  size_t map_size = st->map.size(), text_size = st->text.size();
  bool thrown = false;
  try {
    ptm::atomic([&] {
      st->map[-1] = "rolled back";
      st->text.append("rolled back");
      st->text.reserve(st->text.max_size() + 1); // std::__throw_length_error
    });
  } catch (const std::length_error &) {
    thrown = true;
  }
  CHECK(thrown, "length_error did not leave the transaction");
  thrown = false;
  try {
    PTM_BEGIN();
    st->set.insert(-5);
    st->list.push_back(-5);
    (void)st->map.at(-77); // std::__throw_out_of_range
    PTM_END();
  } catch (const std::out_of_range &) {
    thrown = true;
  }
  CHECK(thrown, "out_of_range did not leave the transaction");
  CHECK_EQ(st->map.size(), map_size);
  CHECK_EQ(st->text.size(), text_size);
  CHECK(st->map.count(-1) == 0 && st->set.count(-5) == 0 &&
            std::find(st->list.begin(), st->list.end(), -5) == st->list.end(),
        "an exception left a transaction's changes behind");
}

} // namespace

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 2;
  ops_per_phase = argc > 2 ? atoi(argv[2]) : 300;
  if (threads < 1 || threads > 64 || ops_per_phase < 1) {
    fprintf(stderr, "usage: %s [threads 1..64 [operations]]\n", argv[0]);
    return 2;
  }

  // The containers are made (and at the end destroyed) in transactions: with
  // an ip_ library all their memory is in the pool.
  ptm::atomic([] { shared_state = new State; });

  std::vector<Worker> workers(static_cast<size_t>(threads));
  std::vector<Record> plain;
  uint64_t main_rng = 99;
  for (int phase = 0; phase < 2; phase++) {
    std::vector<pthread_t> tids(static_cast<size_t>(threads));
    for (int t = 0; t < threads; t++) {
      Worker &w = workers[static_cast<size_t>(t)];
      if (phase == 0)
        w.rng = 1000003ull * static_cast<uint64_t>(t + 1);
      pthread_create(&tids[static_cast<size_t>(t)], nullptr, worker_main, &w);
    }
    for (pthread_t t : tids)
      pthread_join(t, nullptr);
    valid_trees(*shared_state, "after the transactions");
    // libstdc++'s own node code on the trees and lists the transactions
    // built, then the transactions again on what it built.
    plain_ops(*shared_state, main_rng, ops_per_phase, plain);
    valid_trees(*shared_state, "after plain libstdc++ operations");
  }

#ifdef PTM_E2E_TESTRT
  // The node functions ran as their transactional versions, and nothing
  // fell back to running uninstrumented.
  const struct ptm_test_counts *c = ptm_test_counts();
  CHECK(c->libc[PTM_TEST_CXX_TREE] > 0, "no transactional tree function");
  CHECK(c->libc[PTM_TEST_CXX_LIST] > 0, "no transactional list function");
  CHECK(c->libc[PTM_TEST_CXX_HASH] > 0, "no transactional hash function");
  CHECK_EQ(c->clone_misses, 0);
  CHECK_EQ(c->irrevocable, 0);
#endif

  tree_torture();

  // The serial replay in commit order.
  std::vector<Record> all = plain;
  for (Worker &w : workers)
    all.insert(all.end(), w.records.begin(), w.records.end());
  std::sort(all.begin(), all.end(),
            [](const Record &a, const Record &b) { return a.seq < b.seq; });
  State replay;
  int mismatches = 0;
  for (size_t i = 0; i < all.size(); i++) {
    CHECK_EQ(all[i].seq, static_cast<long>(i));
    replay.seq++;
    long r = apply(replay, all[i].op);
    if (r != all[i].result && mismatches++ < 5)
      CHECK(false, "operation %ld (kind %u key %ld val %ld): %ld, replay %ld",
            all[i].seq, all[i].op.kind, all[i].op.key, all[i].op.val,
            all[i].result, r);
  }
  CHECK_EQ(mismatches, 0);
  same_state(*shared_state, replay);

  exceptions(shared_state);
  valid_trees(*shared_state, "after the exceptions");

  ptm::atomic([] { delete shared_state; });
  printf("stdcxx: %d threads, %zu operations\n", threads, all.size());
  return e2e_finish("stdcxx");
}
