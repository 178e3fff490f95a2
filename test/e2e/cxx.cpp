// C++: ptm::atomic with lambdas returning int, a non-trivial type and void;
// a template container's method called in a transaction; virtual calls; an
// exception caught inside a transaction (it commits); new/delete of objects
// inside transactions. Exceptions leaving a transaction: except.cpp.
#include "e2e.h"

#include <cstring>
#include <new>
#include <utility>

namespace {

// A std::string-like non-trivial type (heap buffer, copy, move, destructor).
class Str {
public:
  Str() : data_(dupe("")) {}
  explicit Str(const char *s) : data_(dupe(s)) {}
  Str(const Str &o) : data_(dupe(o.data_)) {}
  Str(Str &&o) noexcept : data_(o.data_) { o.data_ = nullptr; }
  Str &operator=(Str o) {
    std::swap(data_, o.data_);
    return *this;
  }
  ~Str() { delete[] data_; }
  const char *c_str() const { return data_ ? data_ : ""; }
  size_t size() const { return std::strlen(c_str()); }
  Str operator+(const Str &o) const {
    size_t a = size(), b = o.size();
    char *s = new char[a + b + 1];
    std::memcpy(s, c_str(), a);
    std::memcpy(s + a, o.c_str(), b + 1);
    Str r;
    delete[] r.data_;
    r.data_ = s;
    return r;
  }
  bool operator==(const char *s) const { return std::strcmp(c_str(), s) == 0; }

private:
  static char *dupe(const char *s) {
    size_t n = std::strlen(s);
    char *d = new char[n + 1];
    std::memcpy(d, s, n + 1);
    return d;
  }
  char *data_;
};

template <class T, int Cap> class Stack {
public:
  bool push(const T &v) {
    if (n_ == Cap)
      return false;
    items_[n_++] = v;
    return true;
  }
  T pop() { return items_[--n_]; }
  int size() const { return n_; }
  T sum() const {
    T s{};
    for (int i = 0; i < n_; i++)
      s += items_[i];
    return s;
  }

private:
  T items_[Cap];
  int n_ = 0;
};

struct Shape {
  virtual ~Shape() = default;
  virtual long area() const = 0;
  virtual void grow(long by) = 0;
};
struct Square : Shape {
  long side;
  explicit Square(long s) : side(s) {}
  long area() const override { return side * side; }
  void grow(long by) override { side += by; }
};
struct Rect : Shape {
  long w, h;
  Rect(long a, long b) : w(a), h(b) {}
  long area() const override { return w * h; }
  void grow(long by) override {
    w += by;
    h += 2 * by;
  }
};

struct Error {
  int code;
  long payload[4];
};

long counter;
Str greeting("hello");
Stack<long, 64> stack;
Shape *shapes[4];
long guarded;

// Not inlined, so that the throw happens in a cloned callee.
__attribute__((noinline)) void fail_if(bool cond, int code) {
  if (cond)
    throw Error{code, {1, 2, 3, code * 10L}};
}

struct Node {
  long v;
  Node *next;
  Node(long x, Node *n) : v(x), next(n) {}
};
Node *list_head;

} // namespace

int main() {
  E2E_RESET();

  // ptm::atomic returning int, a non-trivial type, and void.
  int r = ptm::atomic([&] {
    counter += 5;
    return static_cast<int>(counter * 2);
  });
  CHECK_EQ(r, 10);
  Str s = ptm::atomic([&] { return greeting + Str(", world"); });
  CHECK(s == "hello, world", "got '%s'", s.c_str());
  ptm::atomic([&] { greeting = Str("bye"); });
  CHECK(greeting == "bye", "greeting '%s'", greeting.c_str());
  E2E_CHECK_PHASE("atomic", 3);

  // A template container's methods in transactions.
  long expect = 0;
  for (long i = 1; i <= 40; i++) {
    expect += i * i;
    bool ok = ptm::atomic([&] { return stack.push(i * i); });
    CHECK(ok, "push %ld", i);
  }
  long sum = ptm::atomic([&] { return stack.sum(); });
  CHECK_EQ(sum, expect);
  long top = ptm::atomic([&] { return stack.pop(); });
  CHECK_EQ(top, 1600);
  CHECK_EQ(stack.size(), 39);
  E2E_CHECK_PHASE("template", 42);

  // Virtual calls inside transactions (vtable -> clone lookup).
  shapes[0] = new Square(2);
  shapes[1] = new Rect(2, 3);
  shapes[2] = new Square(5);
  shapes[3] = new Rect(1, 1);
  long total = 0;
  for (int round = 0; round < 5; round++) {
    total = ptm::atomic([&] {
      long t = 0;
      for (Shape *sh : shapes) {
        sh->grow(1);
        t += sh->area();
      }
      return t;
    });
  }
  // After 5 rounds: squares 7 and 10; rects 7x13 and 6x11.
  CHECK_EQ(total, 49 + 91 + 100 + 66);
  E2E_CHECK_PHASE("virtual", 5);

  // An exception caught inside the transaction: it commits.
  guarded = 100;
  PTM_BEGIN();
  guarded = 200;
  try {
    fail_if(true, 11);
    guarded = -1;
  } catch (const Error &e) {
    guarded += e.code;
  }
  PTM_END();
  CHECK_EQ(guarded, 211);
  E2E_CHECK_PHASE("caught inside", 1);

  // new/delete of objects inside transactions.
  for (long i = 0; i < 30; i++)
    ptm::atomic([&] { list_head = new Node(i, list_head); });
  long n = 0, vsum = 0;
  for (Node *p = list_head; p; p = p->next, n++)
    vsum += p->v;
  CHECK_EQ(n, 30);
  CHECK_EQ(vsum, 29 * 30 / 2);
#ifdef PTM_E2E_TESTRT
  CHECK_EQ(ptm_test_counts()->live_tx_allocs, 30);
#endif
  ptm::atomic([&] {
    while (list_head) {
      Node *d = list_head;
      list_head = d->next;
      delete d;
    }
    for (Shape *&sh : shapes) {
      delete sh;
      sh = nullptr;
    }
  });
  CHECK(list_head == nullptr, "list not empty");
#ifdef PTM_E2E_TESTRT
  CHECK_EQ(ptm_test_counts()->live_tx_allocs, 0);
  CHECK_EQ(ptm_test_counts()->applied_frees, 34);
#endif
  E2E_CHECK_PHASE("new/delete", 31);

  return e2e_finish("cxx");
}
