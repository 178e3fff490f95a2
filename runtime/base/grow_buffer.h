//===- grow_buffer.h - a growable array usable in static TLS ----*- C++ -*-===//
//
// The per-thread descriptor lives in static TLS (`__thread`), so everything in
// it must be constant-initialized and trivially destructible. GrowBuffer is a
// minimal vector of trivially copyable T with exactly that property: the
// storage is malloc'd on first growth and released explicitly (release()) when
// the thread exits. push_back is inline; growth is out of line; the
// barriers' fast paths append only when there is room (try_push_back).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_GROW_BUFFER_H
#define PTM_RUNTIME_GROW_BUFFER_H

#include <cstddef>
#include <cstdlib>
#include <type_traits>

namespace ptm {

[[noreturn]] void fatal(const char *fmt, ...);

template <class T> struct GrowBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "GrowBuffer holds PODs");

  T *data = nullptr;
  size_t size = 0;
  size_t capacity = 0;

  bool empty() const { return size == 0; }
  void clear() { size = 0; }
  T &operator[](size_t i) { return data[i]; }
  const T &operator[](size_t i) const { return data[i]; }

  __attribute__((always_inline)) void push_back(const T &value) {
    if (__builtin_expect(size == capacity, 0))
      grow(size + 1);
    data[size++] = value;
  }

  // The barriers' fast paths, which never grow a buffer (growth is left to
  // their slow paths): room for one more, and an append that needs it.
  __attribute__((always_inline)) bool has_room() const {
    return size != capacity;
  }
  __attribute__((always_inline)) void push_back_in_room(const T &value) {
    data[size++] = value;
  }
  __attribute__((always_inline)) bool try_push_back(const T &value) {
    if (__builtin_expect(!has_room(), 0))
      return false;
    push_back_in_room(value);
    return true;
  }

  // Appends N uninitialized elements and returns the index of the first.
  size_t extend(size_t n) {
    if (capacity - size < n)
      grow(size + n);
    size_t first = size;
    size += n;
    return first;
  }

  __attribute__((noinline)) void grow(size_t needed) {
    size_t cap = capacity ? capacity * 2 : 64;
    while (cap < needed)
      cap *= 2;
    T *fresh = static_cast<T *>(realloc(data, cap * sizeof(T)));
    if (!fresh)
      fatal("out of memory growing a transaction log to %zu bytes",
            cap * sizeof(T));
    data = fresh;
    capacity = cap;
  }

  void release() {
    free(data);
    data = nullptr;
    size = capacity = 0;
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_GROW_BUFFER_H
