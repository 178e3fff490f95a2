//===- test_slot_size.cpp - PTM_POOL_SLOT_SIZE for created pools ---------===//
//
// One ptm_malloc of a 600 MiB block outside a transaction: the allocator logs
// the state word of each of its 9,600 64 KiB chunks, more than a default
// 256 KiB thread slot holds. With the default slots the run must stop with
// the message naming the remedies; with PTM_POOL_SLOT_SIZE=4M the block is
// allocated, written end to end and freed (test/pool/CMakeLists.txt runs
// both, and a malformed value).
//
//===----------------------------------------------------------------------===//

#include "../unit/check.h"

#include <ptm.h>

#include <cstdio>
#include <cstring>

int main() {
  const size_t size = size_t(600) << 20;
  auto *block = static_cast<unsigned char *>(ptm_malloc(size));
  CHECK(block != nullptr);
  if (!block)
    return 1;
  memset(block, 0x5a, size); // fresh block: outside any transaction
  CHECK(block[0] == 0x5a && block[size - 1] == 0x5a);
  ptm_free(block);
  // The chunks are free again: a second block of the same size fits.
  void *again = ptm_malloc(size);
  CHECK(again != nullptr);
  ptm_free(again);
  if (check_failures)
    return check_result("slot size");
  printf("slot size: ok\n");
  return 0;
}
