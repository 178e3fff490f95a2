//===- heap_check.cpp - structural check of the heap metadata -------------===//
//
// check_chunks: every chunk record is consistent (check bytes, classes,
// bitmaps within the class's blocks, large runs whose continuations are
// free records with their cover bits set, no other cover bit, reserved
// words zero); also counts what is allocated and
// free (HeapStats).
//
//===----------------------------------------------------------------------===//
#include "runtime/palloc/heap_impl.h"

#include <cstdio>
#include <string>

namespace ptm {

using namespace palloc;

bool PersistentHeap::Impl::check_chunks(std::string *error,
                                        HeapStats *stats) const {
  HeapStats s{};
  s.chunks_total = nchunks;
  s.bytes_total = uint64_t(nchunks) << kChunkShift;
  char buf[160];
  auto fail = [&](uint32_t ch, const char *what) {
    if (error) {
      snprintf(buf, sizeof buf, "heap chunk %u: %s", ch, what);
      *error = buf;
    }
    return false;
  };
  for (uint32_t ch = 0; ch < nchunks; ++ch) {
    const uint64_t *rec = state(ch);
    for (int i = 1; i < 8; ++i)
      if (rec[i])
        return fail(ch, "reserved metadata word is not zero");
    uint64_t st = rec[0];
    const uint64_t *bm = rec + 8;
    auto bitmap_zero = [&] {
      for (size_t i = 0; i < kBitmapWords; ++i)
        if (bm[i])
          return false;
      return true;
    };
    if (covered(ch, cover[ch / 64]))
      return fail(ch, "cover bit set outside a large block");
    if (st == 0) {
      if (!bitmap_zero())
        return fail(ch, "free chunk with a non-empty allocation bitmap");
      ++s.chunks_free;
      s.bytes_free += kChunkSize;
      continue;
    }
    if (!sealed(st))
      return fail(ch, "state word fails its check byte");
    switch (kind_of(st)) {
    case kSmall: {
      unsigned cls = class_of(st);
      if (cls >= nclasses || count_of(st) != 0)
        return fail(ch, "small chunk with a bad size class");
      uint32_t nw = words_of(cls);
      uint64_t used = 0;
      for (uint32_t wi = 0; wi < kBitmapWords; ++wi) {
        uint64_t valid = wi < nw ? valid_mask(cls, wi) : 0;
        if (bm[wi] & ~valid)
          return fail(ch, "allocation bit set beyond the chunk's blocks");
        used += __builtin_popcountll(bm[wi]);
      }
      ++s.chunks_small;
      s.blocks_allocated += used;
      s.bytes_allocated += used * class_size[cls];
      s.bytes_free += (class_blocks[cls] - used) * class_size[cls];
      break;
    }
    case kLargeHead: {
      uint64_t n = count_of(st);
      if (class_of(st) != 0 || n == 0 || n > nchunks - ch)
        return fail(ch, "large block with a bad length");
      for (uint64_t i = 0; i < n; ++i) {
        uint32_t c = ch + uint32_t(i);
        if (i > 0 && (state(c)[0] != 0 || !covered(c, cover[c / 64])))
          return fail(c, "large block continuation does not match its head");
        for (size_t k = 0; k < kBitmapWords; ++k)
          if (state(c)[8 + k])
            return fail(c, "large block chunk with a non-empty bitmap");
        for (int k = 1; k < 8; ++k)
          if (state(c)[k])
            return fail(c, "reserved metadata word is not zero");
      }
      ++s.large_blocks;
      ++s.blocks_allocated;
      s.chunks_large += n;
      s.bytes_allocated += n << kChunkShift;
      ch += uint32_t(n - 1);
      break;
    }
    default:
      return fail(ch, "unknown chunk state");
    }
  }
  // The cover bitmap's bits past the last chunk are zero.
  uint64_t words = cover_bytes(nchunks) / 8;
  for (uint64_t i = nchunks / 64; i < words; ++i) {
    uint64_t valid = i == nchunks / 64 && nchunks % 64
                         ? (uint64_t(1) << (nchunks % 64)) - 1
                         : (i < nchunks / 64 ? ~uint64_t(0) : 0);
    if (cover[i] & ~valid)
      return fail(uint32_t(i * 64), "cover bit set past the last chunk");
  }
  if (stats)
    *stats = s;
  return true;
}

} // namespace ptm
