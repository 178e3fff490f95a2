//===- test_slot_size.cpp - large blocks and PTM_POOL_SLOT_SIZE ----------===//
//
// pool_slot_size large: one ptm_malloc of a 600 MiB block (9,600 chunks of
// 64 KiB) outside a transaction, and one inside a transaction: the
// allocator logs the head's state word and a cover word per 64 chunks, so
// both fit a default 256 KiB thread slot; the block is written end to end,
// freed, and a block of the same size fits again.
//
// pool_slot_size many: one transaction writes 20,000 words on distinct
// cache lines of a block: more log entries than a default thread slot
// holds (its log extends into the heap, docs/pool.md "Log extensions") or
// fewer than a 4M one (PTM_POOL_SLOT_SIZE=4M); it commits and every word
// reads back (test/pool/CMakeLists.txt runs both, and a malformed value).
//
//===----------------------------------------------------------------------===//

#include "../unit/check.h"

#include <ptm.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

static int large() {
  const size_t size = size_t(600) << 20;
  auto *block = static_cast<unsigned char *>(ptm_malloc(size));
  CHECK(block != nullptr);
  if (!block)
    return 1;
  memset(block, 0x5a, size); // fresh block: outside any transaction
  CHECK(block[0] == 0x5a && block[size - 1] == 0x5a);
  ptm_free(block);
  // The chunks are free again: a block of the same size fits, allocated
  // and freed inside transactions this time.
  void *again = nullptr;
  run_tx([&] { again = ptm_malloc(size); });
  CHECK(again != nullptr);
  run_tx([&] { ptm_free(again); });
  void *third = ptm_malloc(size);
  CHECK(third != nullptr);
  ptm_free(third);
  return 0;
}

static int many() {
  const size_t words = 20000, stride = 64 / sizeof(uint64_t);
  auto *block =
      static_cast<uint64_t *>(ptm_malloc(words * stride * sizeof(uint64_t)));
  CHECK(block != nullptr);
  if (!block)
    return 1;
  memset(block, 0, words * stride * sizeof(uint64_t));
  // (Not the transaction's own fresh block: its stores are logged.)
  run_tx([&] {
    for (size_t i = 0; i < words; ++i)
      __ptm_write_8(&block[i * stride], i + 1);
  });
  for (size_t i = 0; i < words; ++i)
    CHECK(block[i * stride] == i + 1);
  ptm_free(block);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  int rc = 2;
  if (!strcmp(mode, "large"))
    rc = large();
  else if (!strcmp(mode, "many"))
    rc = many();
  else
    fprintf(stderr, "usage: pool_slot_size large|many\n");
  if (rc || check_failures)
    return rc ? rc : check_result("slot size");
  printf("slot size: ok\n");
  return 0;
}
