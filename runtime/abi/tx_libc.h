//===- tx_libc.h - libc string functions over transactional memory -*- C++ -*-//
//
// __ptm_strlen ... __ptm_strndup, __ptm_memchr, __ptm_memcmp: the same results
// as libc, with every access to the strings done through an accessor A of the
// linked algorithm:
//
//   static constexpr bool kPlainReads;   reads may be plain loads (in-place
//                                        algorithms): use libc for reading
//   static uint8_t load8(const void *);
//   static uint64_t load64(const void *);        8-byte aligned address
//   static void read_bytes(void *priv, const void *tm, size_t n);
//   static void write_bytes(void *tm, const void *priv, size_t n);
//   static void *allocate(size_t n);             transactional malloc
//
// With kPlainReads false, strlen reads aligned 8-byte words once aligned, so
// it may read up to 7 bytes past the terminator, never past its aligned word.
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_TX_LIBC_H
#define PTM_RUNTIME_TX_LIBC_H

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ptm {

template <class A> struct TxLibc {
  static size_t strlen(const char *s) {
    if constexpr (A::kPlainReads)
      return ::strlen(s);
    const char *p = s;
    for (; reinterpret_cast<uintptr_t>(p) % 8; ++p)
      if (!A::load8(p))
        return p - s;
    constexpr uint64_t kOnes = 0x0101010101010101ull;
    constexpr uint64_t kHighs = 0x8080808080808080ull;
    for (;; p += 8) {
      uint64_t w = A::load64(p);
      if ((w - kOnes) & ~w & kHighs) // some byte of w is zero
        break;
    }
    while (A::load8(p))
      ++p;
    return p - s;
  }

  static size_t strnlen(const char *s, size_t max) {
    if constexpr (A::kPlainReads)
      return ::strnlen(s, max);
    size_t n = 0;
    while (n < max && A::load8(s + n))
      ++n;
    return n;
  }

  static void *memchr(const void *s, int c, size_t n) {
    if constexpr (A::kPlainReads)
      return const_cast<void *>(::memchr(s, c, n));
    auto *p = static_cast<const unsigned char *>(s);
    for (size_t i = 0; i < n; ++i)
      if (A::load8(p + i) == static_cast<unsigned char>(c))
        return const_cast<unsigned char *>(p + i);
    return nullptr;
  }

  static int memcmp(const void *a, const void *b, size_t n) {
    if constexpr (A::kPlainReads)
      return ::memcmp(a, b, n);
    auto *x = static_cast<const unsigned char *>(a);
    auto *y = static_cast<const unsigned char *>(b);
    for (size_t i = 0; i < n; ++i) {
      int d = int(A::load8(x + i)) - int(A::load8(y + i));
      if (d)
        return d;
    }
    return 0;
  }

  static int strcmp(const char *a, const char *b) {
    if constexpr (A::kPlainReads)
      return ::strcmp(a, b);
    return strncmp(a, b, SIZE_MAX);
  }

  static int strncmp(const char *a, const char *b, size_t n) {
    if constexpr (A::kPlainReads)
      return ::strncmp(a, b, n);
    for (size_t i = 0; i < n; ++i) {
      unsigned char x = A::load8(a + i), y = A::load8(b + i);
      if (x != y)
        return int(x) - int(y);
      if (!x)
        break;
    }
    return 0;
  }

  static char *strcpy(char *dst, const char *src) {
    copy(dst, src, strlen(src) + 1);
    return dst;
  }

  static char *stpcpy(char *dst, const char *src) {
    size_t n = strlen(src);
    copy(dst, src, n + 1);
    return dst + n;
  }

  static char *strncpy(char *dst, const char *src, size_t n) {
    size_t len = strnlen(src, n);
    copy(dst, src, len);
    zero(dst + len, n - len);
    return dst;
  }

  static char *strcat(char *dst, const char *src) {
    strcpy(dst + strlen(dst), src);
    return dst;
  }

  static char *strncat(char *dst, const char *src, size_t n) {
    char *end = dst + strlen(dst);
    size_t len = strnlen(src, n);
    copy(end, src, len);
    zero(end + len, 1);
    return dst;
  }

  static char *strchr(const char *s, int c) {
    if constexpr (A::kPlainReads)
      return const_cast<char *>(::strchr(s, c));
    const char ch = static_cast<char>(c);
    for (;; ++s) {
      char x = static_cast<char>(A::load8(s));
      if (x == ch)
        return const_cast<char *>(s);
      if (!x)
        return nullptr;
    }
  }

  static char *strrchr(const char *s, int c) {
    if constexpr (A::kPlainReads)
      return const_cast<char *>(::strrchr(s, c));
    const char ch = static_cast<char>(c);
    const char *last = nullptr;
    for (;; ++s) {
      char x = static_cast<char>(A::load8(s));
      if (x == ch)
        last = s;
      if (!x)
        return const_cast<char *>(last);
    }
  }

  static char *strstr(const char *hay, const char *needle) {
    if constexpr (A::kPlainReads)
      return const_cast<char *>(::strstr(hay, needle));
    size_t m = strlen(needle);
    for (const char *h = hay;; ++h) {
      if (strncmp(h, needle, m) == 0)
        return const_cast<char *>(h);
      if (!A::load8(h))
        return nullptr;
    }
  }

  static size_t strspn(const char *s, const char *accept) {
    if constexpr (A::kPlainReads)
      return ::strspn(s, accept);
    return span(s, accept, true);
  }

  static size_t strcspn(const char *s, const char *reject) {
    if constexpr (A::kPlainReads)
      return ::strcspn(s, reject);
    return span(s, reject, false);
  }

  static char *strpbrk(const char *s, const char *accept) {
    size_t n = strcspn(s, accept);
    return A::load8(s + n) ? const_cast<char *>(s + n) : nullptr;
  }

  static char *strdup(const char *s) { return strndup(s, SIZE_MAX); }

  static char *strndup(const char *s, size_t n) {
    size_t len = strnlen(s, n);
    auto *copy = static_cast<char *>(A::allocate(len + 1));
    if (!copy)
      return nullptr;
    A::read_bytes(copy, s, len); // the fresh block is private
    copy[len] = '\0';
    return copy;
  }

private:
  // N bytes from transactional SRC to transactional DST (not overlapping).
  static void copy(char *dst, const char *src, size_t n) {
    if constexpr (A::kPlainReads) {
      A::write_bytes(dst, src, n);
    } else {
      char buffer[256];
      for (size_t done = 0; done < n; done += sizeof buffer) {
        size_t chunk = n - done < sizeof buffer ? n - done : sizeof buffer;
        A::read_bytes(buffer, src + done, chunk);
        A::write_bytes(dst + done, buffer, chunk);
      }
    }
  }

  static void zero(char *dst, size_t n) {
    static const char zeros[256] = {};
    for (size_t done = 0; done < n; done += sizeof zeros) {
      size_t chunk = n - done < sizeof zeros ? n - done : sizeof zeros;
      A::write_bytes(dst + done, zeros, chunk);
    }
  }

  // Length of the prefix of S made of bytes in SET (IN) or not in SET (!IN).
  static size_t span(const char *s, const char *set, bool in) {
    uint64_t member[4] = {0, 0, 0, 0};
    for (const char *p = set;; ++p) {
      unsigned char c = A::load8(p);
      if (!c)
        break;
      member[c / 64] |= uint64_t(1) << (c % 64);
    }
    size_t n = 0;
    for (;; ++n) {
      unsigned char c = A::load8(s + n);
      if (!c)
        return n;
      bool is_member = (member[c / 64] >> (c % 64)) & 1;
      if (is_member != in)
        return n;
    }
  }
};

} // namespace ptm

#endif // PTM_RUNTIME_TX_LIBC_H
