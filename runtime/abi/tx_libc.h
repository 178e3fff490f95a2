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
// With kPlainReads false, strlen and strnlen read aligned 8-byte words, so
// they may read up to 7 bytes past the terminator (or the bound), never past
// its aligned word; strcmp, strncmp and memcmp read both operands a word at a
// time the same way (WordCursor).
//
//===----------------------------------------------------------------------===//
#ifndef PTM_RUNTIME_TX_LIBC_H
#define PTM_RUNTIME_TX_LIBC_H

#include "runtime/abi/scratch.h"
#include "runtime/base/report.h"

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>
#include <type_traits>

extern "C" [[noreturn]] void __chk_fail(void); // glibc's, for the _chk forms

namespace ptm {

template <class A> struct TxLibc {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
                "WordCursor takes a word's bytes lowest first");

  // Bytes read a word at a time: W holds the LEFT bytes from P to the end
  // of P's aligned 8-byte word, lowest first. Reading the whole aligned word
  // touches no page, orec or log granule that its bytes do not, so a
  // comparison costs one barrier per word of each operand instead of one
  // per byte (genome's segment compares, memcached's key compares).
  struct WordCursor {
    const unsigned char *p;
    uint64_t w;
    unsigned left;
    explicit WordCursor(const void *s)
        : p(static_cast<const unsigned char *>(s)) {
      load();
    }
    void load() {
      auto a = reinterpret_cast<uintptr_t>(p);
      unsigned off = unsigned(a % 8);
      w = A::load64(reinterpret_cast<const void *>(a - off)) >> (8 * off);
      left = 8 - off;
    }
    // Moves past K <= LEFT bytes, loading the next word when this one is
    // used up (the caller knows that a byte follows).
    void skip(unsigned k) {
      p += k;
      left -= k;
      if (left == 0)
        load();
      else
        w >>= 8 * k;
    }
  };

  // The sign of the first difference in the first N bytes of A and B, as
  // unsigned chars; with STRINGS, also stops after a NUL in both.
  template <bool Strings>
  static int compare_words(const void *a, const void *b, size_t n) {
    if (n == 0)
      return 0;
    WordCursor x(a), y(b);
    for (;;) {
      unsigned k = x.left < y.left ? x.left : y.left;
      if (k > n)
        k = unsigned(n);
      for (unsigned i = 0; i < k; ++i) {
        unsigned cx = unsigned(x.w >> (8 * i)) & 0xff;
        unsigned cy = unsigned(y.w >> (8 * i)) & 0xff;
        if (cx != cy)
          return int(cx) - int(cy);
        if (Strings && cx == 0)
          return 0;
      }
      n -= k;
      if (n == 0)
        return 0;
      x.skip(k);
      y.skip(k);
    }
  }

  static size_t strlen(const char *s) {
    if constexpr (A::kPlainReads)
      return ::strlen(s);
    return strnlen(s, SIZE_MAX);
  }

  static size_t strnlen(const char *s, size_t max) {
    if constexpr (A::kPlainReads)
      return ::strnlen(s, max);
    if (max == 0)
      return 0;
    WordCursor c(s);
    for (size_t n = 0;;) {
      unsigned k = c.left;
      for (unsigned i = 0; i < k; ++i)
        if (n + i == max || (c.w >> (8 * i) & 0xff) == 0)
          return n + i;
      n += k;
      if (n >= max)
        return max;
      c.skip(k);
    }
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
    return compare_words<false>(a, b, n);
  }

  static int strcmp(const char *a, const char *b) {
    if constexpr (A::kPlainReads)
      return ::strcmp(a, b);
    return strncmp(a, b, SIZE_MAX);
  }

  static int strncmp(const char *a, const char *b, size_t n) {
    if constexpr (A::kPlainReads)
      return ::strncmp(a, b, n);
    return compare_words<true>(a, b, n);
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

  static void *memrchr(const void *s, int c, size_t n) {
    if constexpr (A::kPlainReads)
      return const_cast<void *>(::memrchr(s, c, n));
    auto *p = static_cast<const unsigned char *>(s);
    while (n--)
      if (A::load8(p + n) == static_cast<unsigned char>(c))
        return const_cast<unsigned char *>(p + n);
    return nullptr;
  }

  // glibc's algorithm: the token is cut with a written NUL, and *SAVE
  // (read and written through the barriers) points past it.
  static char *strtok_r(char *str, const char *delim, char **save) {
    char *s = str;
    if (!s)
      A::read_bytes(&s, save, sizeof s);
    s += strspn(s, delim);
    if (!A::load8(s)) {
      A::write_bytes(save, &s, sizeof s);
      return nullptr;
    }
    char *end = s + strcspn(s, delim);
    char *next = end;
    if (A::load8(end)) {
      zero(end, 1);
      next = end + 1;
    }
    A::write_bytes(save, &next, sizeof next);
    return s;
  }

  // ---- stdlib: the state word and the strings through the barriers ------

  static int rand_r(unsigned *seed) {
    unsigned v;
    A::read_bytes(&v, seed, sizeof v);
    int r = ::rand_r(&v);
    A::write_bytes(seed, &v, sizeof v);
    return r;
  }

  // strtol & co.: the string is read (to its terminator) into a private
  // copy, converted by libc, and *END mapped back into the original string.
  template <class T, class Convert>
  static T convert(const char *s, char **end, Convert conv) {
    size_t n = strlen(s);
    Scratch copy(n + 1);
    A::read_bytes(copy.data(), s, n);
    copy.data()[n] = '\0';
    char *stop = copy.data();
    T v = conv(copy.data(), &stop);
    if (end) {
      char *mapped = const_cast<char *>(s) + (stop - copy.data());
      A::write_bytes(end, &mapped, sizeof mapped);
    }
    return v;
  }
  static long strtol(const char *s, char **end, int base) {
    return convert<long>(
        s, end, [base](char *p, char **e) { return ::strtol(p, e, base); });
  }
  static unsigned long strtoul(const char *s, char **end, int base) {
    return convert<unsigned long>(
        s, end, [base](char *p, char **e) { return ::strtoul(p, e, base); });
  }
  static long long strtoll(const char *s, char **end, int base) {
    return convert<long long>(
        s, end, [base](char *p, char **e) { return ::strtoll(p, e, base); });
  }
  static unsigned long long strtoull(const char *s, char **end, int base) {
    return convert<unsigned long long>(
        s, end, [base](char *p, char **e) { return ::strtoull(p, e, base); });
  }
  static double strtod(const char *s, char **end) {
    return convert<double>(s, end,
                           [](char *p, char **e) { return ::strtod(p, e); });
  }
  static float strtof(const char *s, char **end) {
    return convert<float>(s, end,
                          [](char *p, char **e) { return ::strtof(p, e); });
  }
  static long double strtold(const char *s, char **end) {
    return convert<long double>(
        s, end, [](char *p, char **e) { return ::strtold(p, e); });
  }
  static int atoi(const char *s) {
    return static_cast<int>(strtol(s, nullptr, 10));
  }
  static long atol(const char *s) { return strtol(s, nullptr, 10); }
  static long long atoll(const char *s) { return strtoll(s, nullptr, 10); }
  static double atof(const char *s) { return strtod(s, nullptr); }

  // ---- qsort / bsearch: CMP is the comparator's transactional clone -----

  // Sorts a private copy of the array (heapsort: no allocation, no
  // recursion; equal elements may end in another order than with glibc's
  // qsort, as the C standard allows) and writes back the elements that
  // moved.
  template <class Less>
  static void sort(void *base, size_t n, size_t size, Less cmp) {
    size_t bytes;
    if (n < 2 || size == 0)
      return;
    if (__builtin_mul_overflow(n, size, &bytes) || bytes > SIZE_MAX / 2 - size)
      fatal("qsort of %zu elements of %zu bytes: too large", n, size);
    Scratch buf(2 * bytes + size);
    char *a = buf.data(), *orig = a + bytes, *tmp = orig + bytes;
    A::read_bytes(a, base, bytes);
    memcpy(orig, a, bytes);
    auto at = [&](size_t i) { return a + i * size; };
    auto swap = [&](size_t i, size_t j) {
      memcpy(tmp, at(i), size);
      memcpy(at(i), at(j), size);
      memcpy(at(j), tmp, size);
    };
    auto sift = [&](size_t root, size_t end) {
      for (;;) {
        size_t child = 2 * root + 1;
        if (child >= end)
          return;
        if (child + 1 < end && cmp(at(child), at(child + 1)) < 0)
          ++child;
        if (cmp(at(root), at(child)) >= 0)
          return;
        swap(root, child);
        root = child;
      }
    };
    for (size_t i = n / 2; i-- > 0;)
      sift(i, n);
    for (size_t end = n - 1; end > 0; --end) {
      swap(0, end);
      sift(0, end);
    }
    // Write back runs of changed elements only.
    auto *dst = static_cast<char *>(base);
    for (size_t i = 0; i < n;) {
      if (memcmp(at(i), orig + i * size, size) == 0) {
        ++i;
        continue;
      }
      size_t j = i + 1;
      while (j < n && memcmp(at(j), orig + j * size, size) != 0)
        ++j;
      A::write_bytes(dst + i * size, at(i), (j - i) * size);
      i = j;
    }
  }
  static void qsort(void *base, size_t n, size_t size,
                    int (*cmp)(const void *, const void *)) {
    sort(base, n, size, cmp);
  }
  static void qsort_r(void *base, size_t n, size_t size,
                      int (*cmp)(const void *, const void *, void *),
                      void *arg) {
    sort(base, n, size,
         [cmp, arg](const void *x, const void *y) { return cmp(x, y, arg); });
  }
  // glibc's bisection (the same element is found among equal ones); the
  // comparator reads the elements through the barriers itself.
  static void *bsearch(const void *key, const void *base, size_t n, size_t size,
                       int (*cmp)(const void *, const void *)) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      const char *p = static_cast<const char *>(base) + mid * size;
      int c = cmp(key, p);
      if (c < 0)
        hi = mid;
      else if (c > 0)
        lo = mid + 1;
      else
        return const_cast<char *>(p);
    }
    return nullptr;
  }

  // ---- math with a pointer result: computed privately, stored through the
  // barriers ----
  template <class T, class R> static R store(T *out, T value, R result) {
    A::write_bytes(out, &value, sizeof value);
    return result;
  }
  static double modf(double x, double *ip) {
    double i;
    double f = ::modf(x, &i);
    return store(ip, i, f);
  }
  static float modff(float x, float *ip) {
    float i;
    float f = ::modff(x, &i);
    return store(ip, i, f);
  }
  static long double modfl(long double x, long double *ip) {
    long double i;
    long double f = ::modfl(x, &i);
    return store(ip, i, f);
  }
  static double frexp(double x, int *e) {
    int v;
    double m = ::frexp(x, &v);
    return store(e, v, m);
  }
  static float frexpf(float x, int *e) {
    int v;
    float m = ::frexpf(x, &v);
    return store(e, v, m);
  }
  static long double frexpl(long double x, int *e) {
    int v;
    long double m = ::frexpl(x, &v);
    return store(e, v, m);
  }
  static double remquo(double x, double y, int *q) {
    int v;
    double r = ::remquo(x, y, &v);
    return store(q, v, r);
  }
  static float remquof(float x, float y, int *q) {
    int v;
    float r = ::remquof(x, y, &v);
    return store(q, v, r);
  }
  static void sincos(double x, double *s, double *c) {
    double vs, vc;
    ::sincos(x, &vs, &vc);
    A::write_bytes(s, &vs, sizeof vs);
    A::write_bytes(c, &vc, sizeof vc);
  }
  static void sincosf(float x, float *s, float *c) {
    float vs, vc;
    ::sincosf(x, &vs, &vc);
    A::write_bytes(s, &vs, sizeof vs);
    A::write_bytes(c, &vc, sizeof vc);
  }

  // ---- snprintf & co. ---------------------------------------------------
  //
  // The format is read through the barriers and walked one conversion at a
  // time: each goes with its argument (and its `*` width and precision) to
  // libc's snprintf into a private buffer, a %s argument first read through
  // the barriers into a private copy (up to its precision). The text is then
  // written through the barriers. Refused (the program stops): %n, wide
  // strings (%ls, %S), positional arguments (%1$d).
  //
  // The formatted length; OUT holds the text (not terminated).
  static size_t format(Scratch &out, const char *fmt_tm, va_list ap) {
    size_t flen = strlen(fmt_tm);
    Scratch fmt_copy(flen + 1);
    char *fmt = fmt_copy.data();
    A::read_bytes(fmt, fmt_tm, flen);
    fmt[flen] = '\0';
    size_t len = 0;
    auto append = [&](const char *p, size_t n) {
      out.reserve(len + n, len);
      memcpy(out.data() + len, p, n);
      len += n;
    };
    for (const char *f = fmt; *f;) {
      if (*f != '%') {
        const char *pct = ::strchr(f, '%');
        size_t n = pct ? size_t(pct - f) : ::strlen(f);
        append(f, n);
        f += n;
        continue;
      }
      const char *spec = f++;
      if (*f == '%') {
        append("%", 1);
        ++f;
        continue;
      }
      while (*f && ::strchr("-+ #0'I", *f))
        ++f;
      bool star_w = false, star_p = false;
      int width = 0, prec = -1;
      if (*f == '*') {
        star_w = true;
        width = va_arg(ap, int);
        ++f;
        if (*f >= '0' && *f <= '9')
          fatal("snprintf in a transaction: positional arguments in \"%s\" "
                "are not supported",
                fmt);
      } else {
        while (*f >= '0' && *f <= '9')
          ++f;
      }
      if (*f == '$')
        fatal("snprintf in a transaction: positional arguments in \"%s\" "
              "are not supported",
              fmt);
      if (*f == '.') {
        ++f;
        if (*f == '*') {
          star_p = true;
          prec = va_arg(ap, int);
          ++f;
          if (*f >= '0' && *f <= '9')
            fatal("snprintf in a transaction: positional arguments in \"%s\" "
                  "are not supported",
                  fmt);
        } else {
          prec = 0;
          while (*f >= '0' && *f <= '9')
            prec = prec * 10 + (*f++ - '0');
        }
      }
      enum { kNone, kChar, kShort, kLong, kLongLong, kMax, kSize, kDiff, kLD };
      int mod = kNone;
      if (*f == 'h') {
        mod = f[1] == 'h' ? kChar : kShort;
        f += mod == kChar ? 2 : 1;
      } else if (*f == 'l') {
        mod = f[1] == 'l' ? kLongLong : kLong;
        f += mod == kLongLong ? 2 : 1;
      } else if (*f == 'q') {
        mod = kLongLong;
        ++f;
      } else if (*f == 'j') {
        mod = kMax;
        ++f;
      } else if (*f == 'z' || *f == 'Z') {
        mod = kSize;
        ++f;
      } else if (*f == 't') {
        mod = kDiff;
        ++f;
      } else if (*f == 'L') {
        mod = kLD;
        ++f;
      }
      char conv = *f;
      if (!conv)
        fatal("snprintf in a transaction: incomplete conversion at the end "
              "of \"%s\"",
              fmt);
      ++f;
      char one[64]; // this conversion alone
      size_t speclen = size_t(f - spec);
      if (speclen >= sizeof one)
        fatal("snprintf in a transaction: conversion too long in \"%s\"", fmt);
      memcpy(one, spec, speclen);
      one[speclen] = '\0';
      auto emit = [&](auto... arg) {
        int n;
        if (star_w && star_p)
          n = ::snprintf(nullptr, 0, one, width, prec, arg...);
        else if (star_w)
          n = ::snprintf(nullptr, 0, one, width, arg...);
        else if (star_p)
          n = ::snprintf(nullptr, 0, one, prec, arg...);
        else
          n = ::snprintf(nullptr, 0, one, arg...);
        if (n < 0)
          fatal("snprintf in a transaction: libc refused \"%s\"", one);
        out.reserve(len + size_t(n) + 1, len);
        char *at = out.data() + len;
        if (star_w && star_p)
          ::snprintf(at, size_t(n) + 1, one, width, prec, arg...);
        else if (star_w)
          ::snprintf(at, size_t(n) + 1, one, width, arg...);
        else if (star_p)
          ::snprintf(at, size_t(n) + 1, one, prec, arg...);
        else
          ::snprintf(at, size_t(n) + 1, one, arg...);
        len += size_t(n);
      };
      // An integer argument of the conversion's signedness (IS_SIGNED:
      // std::true_type or std::false_type) and the length modifier's size
      // (hh and h arrive promoted to int).
      auto emit_integer = [&](auto is_signed) {
        constexpr bool s = decltype(is_signed)::value;
        // (aliases: va_arg is a macro, a comma in its type would split it)
        using Long = std::conditional_t<s, long, unsigned long>;
        using LongLong = std::conditional_t<s, long long, unsigned long long>;
        using Max = std::conditional_t<s, intmax_t, uintmax_t>;
        using Size = std::conditional_t<s, ssize_t, size_t>;
        using Int = std::conditional_t<s, int, unsigned>;
        if (mod == kLong)
          emit(va_arg(ap, Long));
        else if (mod == kLongLong)
          emit(va_arg(ap, LongLong));
        else if (mod == kMax)
          emit(va_arg(ap, Max));
        else if (mod == kSize)
          emit(va_arg(ap, Size));
        else if (mod == kDiff)
          emit(va_arg(ap, ptrdiff_t));
        else
          emit(va_arg(ap, Int));
      };
      switch (conv) {
      case 'd':
      case 'i':
        emit_integer(std::true_type{});
        break;
      case 'o':
      case 'u':
      case 'x':
      case 'X':
      case 'b':
      case 'B':
        emit_integer(std::false_type{});
        break;
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G':
      case 'a':
      case 'A':
        if (mod == kLD)
          emit(va_arg(ap, long double));
        else
          emit(va_arg(ap, double));
        break;
      case 'c':
        if (mod == kLong)
          emit(va_arg(ap, wint_t));
        else
          emit(va_arg(ap, int));
        break;
      case 'C':
        emit(va_arg(ap, wint_t));
        break;
      case 'p':
        emit(va_arg(ap, void *));
        break;
      case 'm': // no argument: the extra one is ignored
        emit(0);
        break;
      case 's': {
        if (mod == kLong)
          fatal("snprintf in a transaction: %%ls (wide strings) in \"%s\" "
                "is not supported",
                fmt);
        const char *s = va_arg(ap, const char *);
        if (!s) {
          emit(s); // glibc prints "(null)"
          break;
        }
        size_t n = prec >= 0 ? strnlen(s, size_t(prec)) : strlen(s);
        Scratch copy(n + 1);
        A::read_bytes(copy.data(), s, n);
        copy.data()[n] = '\0';
        emit(static_cast<const char *>(copy.data()));
        break;
      }
      case 'n':
        fatal("snprintf in a transaction: %%n in \"%s\" is refused", fmt);
      case 'S':
        fatal("snprintf in a transaction: %%S (wide strings) in \"%s\" is "
              "not supported",
              fmt);
      default:
        fatal("snprintf in a transaction: unknown conversion '%c' in \"%s\"",
              conv, fmt);
      }
    }
    return len;
  }

  // Formats into DST (transactional; at most SIZE bytes, terminated if
  // SIZE > 0); returns the full length like vsnprintf. LIMIT: the size of
  // DST's object for the _chk versions (a longer text calls __chk_fail).
  static int vsnprintf(char *dst, size_t size, const char *fmt, va_list ap,
                       size_t limit = SIZE_MAX) {
    Scratch out(256);
    va_list copy;
#if defined(__x86_64__)
    // The caller's list as the transaction sees it: code compiled with the
    // plugin writes a shared list through the barriers (a redo entry may
    // hold its current state). A va_list is copied by copying its bytes.
    A::read_bytes(copy, ap, sizeof(va_list));
#else
    va_copy(copy, ap);
#endif
    size_t len = format(out, fmt, copy);
    va_end(copy);
    if (len >= limit)
      __chk_fail();
    if (size > 0) {
      size_t n = len < size - 1 ? len : size - 1;
      A::write_bytes(dst, out.data(), n);
      zero(dst + n, 1);
    }
    if (len > INT_MAX) {
      errno = EOVERFLOW;
      return -1;
    }
    return static_cast<int>(len);
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
